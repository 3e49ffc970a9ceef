/**
 * The vocabulary of the demo catalogue: real kinds of Chinese coins and notes with the titles,
 * years, denominations and price ranges (yuan) a collector would recognise.
 */
export interface ItemTemplate {
  title: string
  kind: 'coin' | 'note'
  category: number
  year: string
  denomination: string
  material: string
  /** Inscription on the picture and the rim legend. */
  face: string
  legend: string
  metal?: 'silver' | 'gold' | 'copper' | 'brass'
  holed?: boolean
  priceYuan: [number, number]
  description: string
}

export const CATEGORIES = [
  { name: '古钱币', nameEn: 'Ancient coins', icon: '古' },
  { name: '机制币', nameEn: 'Machine-struck coins', icon: '机' },
  { name: '纸币', nameEn: 'Banknotes', icon: '钞' },
  { name: '金银纪念币', nameEn: 'Gold & silver commemoratives', icon: '金' },
  { name: '评级币', nameEn: 'Graded coins', icon: '评' },
  { name: '外国钱币', nameEn: 'Foreign coins', icon: '外' },
  { name: '章牌', nameEn: 'Medals', icon: '章' },
  { name: '邮票杂项', nameEn: 'Stamps & sundries', icon: '邮' },
] as const

export interface MallCategoryTemplate {
  name: string
  nameEn: string
  children: { name: string; nameEn: string }[]
}

export const MALL_CATEGORIES: MallCategoryTemplate[] = [
  {
    name: '钱币',
    nameEn: 'Coins',
    children: [
      { name: '古钱币', nameEn: 'Ancient coins' },
      { name: '机制币', nameEn: 'Machine-struck coins' },
      { name: '纪念币', nameEn: 'Commemorative coins' },
    ],
  },
  {
    name: '纸币',
    nameEn: 'Banknotes',
    children: [
      { name: '人民币', nameEn: 'Renminbi' },
      { name: '民国纸币', nameEn: 'Republic of China notes' },
      { name: '外国纸币', nameEn: 'Foreign banknotes' },
    ],
  },
  {
    name: '金银币',
    nameEn: 'Gold & silver coins',
    children: [
      { name: '熊猫币', nameEn: 'Panda coins' },
      { name: '生肖币', nameEn: 'Chinese zodiac coins' },
      { name: '纪念金银币', nameEn: 'Gold & silver commemoratives' },
    ],
  },
  {
    name: '收藏工具',
    nameEn: 'Collecting supplies',
    children: [
      { name: '评级盒', nameEn: 'Slab holders' },
      { name: '钱币册', nameEn: 'Coin albums' },
      { name: '放大镜', nameEn: 'Loupes' },
    ],
  },
]

/** Home banners: a title in both languages and the special (index into the seeded plans). */
export const HOME_BANNERS = [
  {
    title: '民国机制币精品 · 袁大头船洋龙洋',
    titleEn: 'Republic-era struck coins · Yuan Shikai, Junk & Dragon dollars',
    special: 1,
  },
  {
    title: '周末评级币速拍 · 即将结拍',
    titleEn: 'Weekend graded-coin quick sale · Closing soon',
    special: 0,
  },
  {
    title: '纸韵流金 · 一版至五版人民币',
    titleEn: 'Golden paper · Renminbi, first to fifth series',
    special: 3,
  },
] as const

const ancient = (
  title: string,
  year: string,
  denomination: string,
  face: string,
  priceYuan: [number, number],
  description: string,
): ItemTemplate => ({
  title,
  kind: 'coin',
  category: 1,
  year,
  denomination,
  material: '铜',
  face,
  legend: '',
  metal: 'copper',
  holed: true,
  priceYuan,
  description,
})

const silver = (
  title: string,
  year: string,
  face: string,
  legend: string,
  priceYuan: [number, number],
  description: string,
): ItemTemplate => ({
  title,
  kind: 'coin',
  category: 2,
  year,
  denomination: face,
  material: '银',
  face,
  legend,
  metal: 'silver',
  priceYuan,
  description,
})

const note = (
  title: string,
  year: string,
  face: string,
  legend: string,
  priceYuan: [number, number],
  description: string,
): ItemTemplate => ({
  title,
  kind: 'note',
  category: 3,
  year,
  denomination: face,
  material: '纸',
  face,
  legend,
  priceYuan,
  description,
})

const commemorative = (
  title: string,
  year: string,
  face: string,
  legend: string,
  metal: 'silver' | 'gold',
  priceYuan: [number, number],
  description: string,
): ItemTemplate => ({
  title,
  kind: 'coin',
  category: 4,
  year,
  denomination: face,
  material: metal === 'gold' ? '金' : '银',
  face,
  legend,
  metal,
  priceYuan,
  description,
})

export const ANCIENT: ItemTemplate[] = [
  ancient(
    '唐代开元通宝小平',
    '621',
    '小平',
    '开元通宝',
    [60, 600],
    '唐初铸币，欧阳询书，钱文端庄，铜色自然。',
  ),
  ancient(
    '唐代乾元重宝当十',
    '758',
    '当十',
    '乾元重宝',
    [120, 900],
    '唐肃宗乾元年间铸，字口清晰，包浆熟旧。',
  ),
  ancient(
    '北宋宋元通宝小平',
    '960',
    '小平',
    '宋元通宝',
    [80, 500],
    '北宋开国钱，隶书，传世品相佳。',
  ),
  ancient(
    '北宋崇宁通宝瘦金体折十',
    '1102',
    '折十',
    '崇宁通宝',
    [300, 3000],
    '宋徽宗御书瘦金体，铁画银钩，美制大钱。',
  ),
  ancient(
    '北宋大观通宝瘦金体折十',
    '1107',
    '折十',
    '大观通宝',
    [500, 5000],
    '宋徽宗御书，钱文秀美，为泉界名品。',
  ),
  ancient(
    '元代至正通宝折三',
    '1350',
    '折三',
    '至正通宝',
    [200, 1500],
    '元末铸币，背有八思巴文纪值。',
  ),
  ancient(
    '明代永乐通宝小平',
    '1408',
    '小平',
    '永乐通宝',
    [50, 400],
    '明成祖时铸，制作规整，铜质精良。',
  ),
  ancient(
    '明代天启通宝折十',
    '1621',
    '折十',
    '天启通宝',
    [300, 2500],
    '明熹宗天启年间大钱，背上十下一两。',
  ),
  ancient(
    '清代康熙通宝宝泉局',
    '1662',
    '小平',
    '康熙通宝',
    [30, 300],
    '宝泉局铸，满汉文，传世美品。',
  ),
  ancient(
    '清代乾隆通宝宝源局',
    '1736',
    '小平',
    '乾隆通宝',
    [20, 200],
    '宝源局铸，铜色黄亮，字口深峻。',
  ),
  ancient(
    '清代咸丰元宝宝泉当百',
    '1854',
    '当百',
    '咸丰元宝',
    [800, 8000],
    '咸丰大钱，厚重精美，背满文宝泉。',
  ),
  ancient('西汉五铢钱', '前118', '五铢', '五铢', [30, 300], '汉武帝元狩五年始铸，沿用七百余年。'),
  ancient('秦半两', '前221', '半两', '半两', [100, 1000], '秦统一币制后所铸，篆书半两。'),
  ancient('新莽大泉五十', '7', '大泉五十', '大泉五十', [80, 600], '王莽改制钱，悬针篆，铸工精湛。'),
  ancient('新莽货泉', '14', '货泉', '货泉', [50, 400], '王莽天凤元年铸，钱文悬针篆。'),
]

export const MACHINE_STRUCK: ItemTemplate[] = [
  silver(
    '民国三年袁世凯像壹圆',
    '1914',
    '壹圆',
    '中华民国三年',
    [800, 3000],
    '俗称“袁大头”，民国主币，流通最广的银元之一。',
  ),
  silver(
    '民国八年袁世凯像壹圆',
    '1919',
    '壹圆',
    '中华民国八年',
    [900, 3500],
    '俗称“袁大头”，八年版，边齿规整。',
  ),
  silver(
    '民国九年袁世凯像壹圆',
    '1920',
    '壹圆',
    '中华民国九年',
    [800, 3200],
    '俗称“袁大头”，九年版，存世量较大。',
  ),
  silver(
    '民国十年袁世凯像壹圆',
    '1921',
    '壹圆',
    '中华民国十年',
    [1000, 5000],
    '俗称“袁大头”，十年版，铸量较少。',
  ),
  silver(
    '民国二十三年孙中山像帆船壹圆',
    '1934',
    '壹圆',
    '中华民国二十三年',
    [900, 4000],
    '俗称“船洋”，正面孙中山侧像，背面帆船。',
  ),
  silver(
    '民国二十二年孙中山像帆船壹圆',
    '1933',
    '壹圆',
    '中华民国二十二年',
    [1200, 6000],
    '俗称“船洋”，二十二年版，首年铸造。',
  ),
  silver(
    '孙中山像开国纪念币壹圆',
    '1912',
    '壹圆',
    '中华民国开国纪念币',
    [1500, 8000],
    '俗称“开国币”，背嘉禾图案，纪念民国肇建。',
  ),
  silver(
    '光绪元宝北洋造库平七钱二分',
    '1908',
    '光绪元宝',
    '北洋造 库平七钱二分',
    [3000, 20000],
    '俗称“龙洋”，北洋机器局铸，蟠龙图精美。',
  ),
  silver(
    '光绪元宝广东省造库平七钱二分',
    '1890',
    '光绪元宝',
    '广东省造 库平七钱二分',
    [2500, 18000],
    '俗称“龙洋”，广东钱局铸，中国最早机制银元之一。',
  ),
  silver(
    '光绪元宝湖北省造库平七钱二分',
    '1895',
    '光绪元宝',
    '湖北省造 库平七钱二分',
    [3000, 25000],
    '俗称“龙洋”，湖北银元局铸。',
  ),
  silver(
    '宣统三年大清银币壹圆',
    '1911',
    '壹圆',
    '大清银币 宣统三年',
    [2000, 12000],
    '清末统一币制所铸主币，背蟠龙。',
  ),
  silver(
    '民国二十五年孙中山像壹角镍币',
    '1936',
    '壹角',
    '中华民国二十五年',
    [30, 300],
    '布图案镍币，法币改革时期辅币。',
  ),
]

export const BANKNOTES: ItemTemplate[] = [
  note(
    '第一套人民币伍佰圆瞻德城',
    '1949',
    '伍佰圆',
    '中国人民银行',
    [20000, 120000],
    '第一套人民币名誉品之一，存世稀少。',
  ),
  note(
    '第一套人民币壹万圆军舰',
    '1949',
    '壹万圆',
    '中国人民银行',
    [30000, 150000],
    '第一套人民币“十二珍品”之一。',
  ),
  note(
    '第二套人民币叁圆',
    '1953',
    '叁圆',
    '中国人民银行',
    [15000, 60000],
    '俗称“苏三币”，苏联代印，深绿色调。',
  ),
  note(
    '第二套人民币拾圆',
    '1957',
    '拾圆',
    '中国人民银行',
    [20000, 80000],
    '俗称“黑十元”，工农像，二版最高面额。',
  ),
  note(
    '第二套人民币伍圆',
    '1956',
    '伍圆',
    '中国人民银行',
    [1000, 6000],
    '各民族大团结图案，酱紫色。',
  ),
  note(
    '第三套人民币拾圆大团结',
    '1965',
    '拾圆',
    '中国人民银行',
    [150, 1200],
    '俗称“大团结”，人民代表步出大会堂。',
  ),
  note(
    '第三套人民币贰角长江大桥',
    '1962',
    '贰角',
    '中国人民银行',
    [30, 300],
    '正面武汉长江大桥，绿色调。',
  ),
  note(
    '第四套人民币壹佰圆',
    '1980',
    '壹佰圆',
    '中国人民银行',
    [800, 4000],
    '俗称“8001”，四位领袖浮雕像。',
  ),
  note(
    '第五套人民币壹佰圆',
    '1999',
    '壹佰圆',
    '中国人民银行',
    [200, 1500],
    '1999年版，毛泽东像，红色调。',
  ),
  note(
    '民国二十四年中国银行壹圆',
    '1935',
    '壹圆',
    '中国银行',
    [60, 600],
    '法币时期中国银行发行，英国德纳罗印制。',
  ),
  note('民国三年交通银行伍圆', '1914', '伍圆', '交通银行', [200, 2000], '北洋时期交通银行兑换券。'),
  note(
    '民国二十五年中央银行拾圆',
    '1936',
    '拾圆',
    '中央银行',
    [100, 1200],
    '中央银行法币，孙中山像。',
  ),
]

export const COMMEMORATIVES: ItemTemplate[] = [
  commemorative(
    '熊猫银币1盎司',
    '2015',
    '10元',
    '中华人民共和国',
    'silver',
    [200, 1500],
    '中国人民银行发行的熊猫普制银币，每年图案不同。',
  ),
  commemorative(
    '熊猫金币1/10盎司',
    '2016',
    '50元',
    '中华人民共和国',
    'gold',
    [1500, 4000],
    '熊猫普制金币，含纯金1/10盎司。',
  ),
  commemorative(
    '甲辰龙年生肖银币15克',
    '2024',
    '5元',
    '中华人民共和国',
    'silver',
    [150, 600],
    '2024中国甲辰（龙）年金银纪念币，彩色银币。',
  ),
  commemorative(
    '北京奥运会金银纪念币第三组',
    '2008',
    '10元',
    '第29届奥林匹克运动会',
    'silver',
    [300, 1800],
    '第29届奥运会贵金属纪念币，银币1盎司。',
  ),
  commemorative(
    '中华人民共和国成立30周年金币',
    '1979',
    '400元',
    '中华人民共和国成立三十周年',
    'gold',
    [20000, 80000],
    '新中国首套现代贵金属纪念币。',
  ),
  commemorative(
    '澳门回归祖国纪念金币',
    '1999',
    '100元',
    '澳门回归祖国',
    'gold',
    [3000, 12000],
    '纪念澳门回归，含纯金1/4盎司。',
  ),
]

/** PCGS/NGC grades for coins, PMG for notes; GBCA for both (DESIGN §8). */
export const COIN_GRADES = [
  'MS66',
  'MS65',
  'MS64',
  'MS63',
  'MS62',
  'MS61',
  'AU58',
  'AU55',
  'XF45',
  'VF35',
]
export const NOTE_GRADES = ['68EPQ', '66EPQ', '65EPQ', '64EPQ', '63', '58EPQ', '55', '45']

/** Condition grades of spec §3 that fit raw (ungraded) coins and notes. */
export const RAW_COIN_GRADES = [
  1, 2, 3, 4, 5, 7, 8, 14, 15, 16, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
]
export const RAW_NOTE_GRADES = [11, 12, 13, 22, 23, 24, 25, 26, 27, 28, 29, 30]

export const SPECIAL_THEMES = [
  {
    title: '泉海拾珍·民国机制币专场',
    /** The English title, for the banners that show this special. */
    titleEn: 'Treasures of the Republic · Machine-struck coins',
    subtitle: '袁大头 · 船洋 · 龙洋 精选',
    description: '汇集民国及清末机制银币精品，含多枚PCGS、NGC评级币，适合入门与进阶藏家。',
    pool: 'machine' as const,
  },
  {
    title: '古泉雅集·历代古钱币专场',
    titleEn: 'Ancient coins through the dynasties',
    subtitle: '秦汉至明清 方孔圆钱',
    description: '自秦半两至清代大钱，品相自然，包浆熟旧，均经专家鉴定。',
    pool: 'ancient' as const,
  },
  {
    title: '纸韵流金·人民币纸币专场',
    titleEn: 'Golden paper · Renminbi banknotes',
    subtitle: '一版至五版 · 民国纸币',
    description: '第一至第五套人民币与民国纸币，多为PMG、GBCA评级钞。',
    pool: 'banknote' as const,
  },
  {
    title: '金银荟萃·贵金属纪念币专场',
    titleEn: 'Gold & silver · Precious-metal commemoratives',
    subtitle: '熊猫 · 生肖 · 奥运',
    description: '现代金银纪念币，原盒原证，品相完美。',
    pool: 'commemorative' as const,
  },
  {
    title: '周末评级币速拍',
    titleEn: 'Weekend graded-coin quick sale',
    subtitle: '评级币 每30秒结拍一件',
    description: '精选评级钱币与纸币，低起拍，速拍速结。',
    pool: 'graded' as const,
  },
]
