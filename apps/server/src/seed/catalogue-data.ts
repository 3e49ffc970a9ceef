/**
 * The vocabulary of the demo catalogue: real kinds of Chinese coins and notes with the titles,
 * years, denominations and price ranges (yuan) a collector would recognise, and the collecting
 * supplies the mall sells beside them.
 */

/** The mall's leaf categories (MALL_CATEGORIES): every mall item is filed under one. */
export type MallLeaf =
  | '古钱币'
  | '机制币'
  | '纪念币'
  | '人民币'
  | '民国纸币'
  | '外国纸币'
  | '熊猫币'
  | '生肖币'
  | '纪念金银币'
  | '评级盒'
  | '钱币册'
  | '放大镜'

export type SupplyLeaf = Extract<MallLeaf, '评级盒' | '钱币册' | '放大镜'>

export interface ItemTemplate {
  title: string
  kind: 'coin' | 'note'
  /** The auction category (index into CATEGORIES, from 1). */
  category: number
  /** Where the mall files it: by what it is (a 民国 note is not 人民币, a nickel coin not 金银币). */
  mall: Exclude<MallLeaf, SupplyLeaf>
  year: string
  denomination: string
  material: string
  /** Inscription on the picture and the rim legend. */
  face: string
  legend: string
  metal?: 'silver' | 'gold' | 'copper' | 'brass' | 'nickel'
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
  children: { name: MallLeaf; nameEn: string }[]
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
  mall: '古钱币',
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
  mall: '机制币',
  year,
  denomination: face,
  material: '银',
  face,
  legend,
  metal: 'silver',
  priceYuan,
  description,
})

/** A struck nickel coin: filed with the machine-struck coins, never with gold and silver. */
const nickel = (...args: Parameters<typeof silver>): ItemTemplate => ({
  ...silver(...args),
  material: '镍',
  metal: 'nickel',
})

const note = (
  mall: ItemTemplate['mall'],
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
  mall,
  year,
  denomination: face,
  material: '纸',
  face,
  legend,
  priceYuan,
  description,
})

const commemorative = (
  mall: '熊猫币' | '生肖币' | '纪念金银币',
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
  mall,
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
  nickel(
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
    '人民币',
    '第一套人民币伍佰圆瞻德城',
    '1949',
    '伍佰圆',
    '中国人民银行',
    [20000, 120000],
    '第一套人民币名誉品之一，存世稀少。',
  ),
  note(
    '人民币',
    '第一套人民币壹万圆军舰',
    '1949',
    '壹万圆',
    '中国人民银行',
    [30000, 150000],
    '第一套人民币“十二珍品”之一。',
  ),
  note(
    '人民币',
    '第二套人民币叁圆',
    '1953',
    '叁圆',
    '中国人民银行',
    [15000, 60000],
    '俗称“苏三币”，苏联代印，深绿色调。',
  ),
  note(
    '人民币',
    '第二套人民币拾圆',
    '1957',
    '拾圆',
    '中国人民银行',
    [20000, 80000],
    '俗称“黑十元”，工农像，二版最高面额。',
  ),
  note(
    '人民币',
    '第二套人民币伍圆',
    '1956',
    '伍圆',
    '中国人民银行',
    [1000, 6000],
    '各民族大团结图案，酱紫色。',
  ),
  note(
    '人民币',
    '第三套人民币拾圆大团结',
    '1965',
    '拾圆',
    '中国人民银行',
    [150, 1200],
    '俗称“大团结”，人民代表步出大会堂。',
  ),
  note(
    '人民币',
    '第三套人民币贰角长江大桥',
    '1962',
    '贰角',
    '中国人民银行',
    [30, 300],
    '正面武汉长江大桥，绿色调。',
  ),
  note(
    '人民币',
    '第四套人民币壹佰圆',
    '1980',
    '壹佰圆',
    '中国人民银行',
    [800, 4000],
    '俗称“8001”，四位领袖浮雕像。',
  ),
  note(
    '人民币',
    '第五套人民币壹佰圆',
    '1999',
    '壹佰圆',
    '中国人民银行',
    [200, 1500],
    '1999年版，毛泽东像，红色调。',
  ),
  note(
    '民国纸币',
    '民国二十四年中国银行壹圆',
    '1935',
    '壹圆',
    '中国银行',
    [60, 600],
    '法币时期中国银行发行，英国德纳罗印制。',
  ),
  note(
    '民国纸币',
    '民国三年交通银行伍圆',
    '1914',
    '伍圆',
    '交通银行',
    [200, 2000],
    '北洋时期交通银行兑换券。',
  ),
  note(
    '民国纸币',
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
    '熊猫币',
    '熊猫银币1盎司',
    '2015',
    '10元',
    '中华人民共和国',
    'silver',
    [200, 1500],
    '中国人民银行发行的熊猫普制银币，每年图案不同。',
  ),
  commemorative(
    '熊猫币',
    '熊猫金币1/10盎司',
    '2016',
    '50元',
    '中华人民共和国',
    'gold',
    [1500, 4000],
    '熊猫普制金币，含纯金1/10盎司。',
  ),
  commemorative(
    '生肖币',
    '甲辰龙年生肖银币15克',
    '2024',
    '5元',
    '中华人民共和国',
    'silver',
    [150, 600],
    '2024中国甲辰（龙）年金银纪念币，彩色银币。',
  ),
  commemorative(
    '纪念金银币',
    '北京奥运会金银纪念币第三组',
    '2008',
    '10元',
    '第29届奥林匹克运动会',
    'silver',
    [300, 1800],
    '第29届奥运会贵金属纪念币，银币1盎司。',
  ),
  commemorative(
    '纪念金银币',
    '中华人民共和国成立30周年金币',
    '1979',
    '400元',
    '中华人民共和国成立三十周年',
    'gold',
    [20000, 80000],
    '新中国首套现代贵金属纪念币。',
  ),
  commemorative(
    '纪念金银币',
    '澳门回归祖国纪念金币',
    '1999',
    '100元',
    '澳门回归祖国',
    'gold',
    [3000, 12000],
    '纪念澳门回归，含纯金1/4盎司。',
  ),
]

/** Circulating commemoratives in base metal: filed under 钱币 › 纪念币, never with gold and silver. */
const circulating = (
  title: string,
  year: string,
  face: string,
  legend: string,
  material: '铜镍' | '黄铜' | '双色铜合金',
  priceYuan: [number, number],
  description: string,
): ItemTemplate => ({
  title,
  kind: 'coin',
  category: 2,
  mall: '纪念币',
  year,
  denomination: face,
  material,
  face,
  legend,
  metal: material === '铜镍' ? 'nickel' : 'brass',
  priceYuan,
  description,
})

const foreignNote = (
  title: string,
  year: string,
  denomination: string,
  face: string,
  legend: string,
  material: '纸' | '聚合物',
  priceYuan: [number, number],
  description: string,
): ItemTemplate => ({
  title,
  kind: 'note',
  // The auction list has no foreign-note category; a lot of one would go under 纸币.
  category: 3,
  mall: '外国纸币',
  year,
  denomination,
  material,
  face,
  legend,
  priceYuan,
  description,
})

/**
 * Items only the mall sells (the auction specials draw from the lists above, unchanged): base-metal
 * commemoratives, foreign notes, more Republic notes, and more panda, zodiac and commemorative
 * gold and silver, so every mall category has a shelf of its own.
 */
export const MALL_ONLY: ItemTemplate[] = [
  circulating(
    '中华人民共和国成立35周年纪念币',
    '1984',
    '壹圆',
    '中华人民共和国成立三十五周年',
    '铜镍',
    [15, 60],
    '新中国首套流通纪念币，一套三枚，此为开国大典图。',
  ),
  circulating(
    '中华人民共和国成立50周年纪念币',
    '1999',
    '拾圆',
    '中华人民共和国成立五十周年',
    '铜镍',
    [25, 80],
    '建国五十周年流通纪念币，正面天安门与国徽。',
  ),
  circulating(
    '迎接新世纪纪念币',
    '2000',
    '拾圆',
    '迎接新世纪',
    '双色铜合金',
    [15, 50],
    '迎接新世纪双色流通纪念币，背面“千年之交”图案。',
  ),
  circulating(
    '中国航天纪念币',
    '2015',
    '拾圆',
    '中国航天',
    '双色铜合金',
    [20, 60],
    '中国航天普通纪念币，背面长征火箭与神舟飞船。',
  ),
  circulating(
    '中华人民共和国成立70周年纪念币',
    '2019',
    '拾圆',
    '中华人民共和国成立七十周年',
    '双色铜合金',
    [15, 45],
    '建国七十周年流通纪念币，原卷拆出。',
  ),
  note(
    '民国纸币',
    '民国十九年中国银行伍圆',
    '1930',
    '伍圆',
    '中国银行',
    [300, 2500],
    '中国银行兑换券，美国钞票公司印制。',
  ),
  note(
    '民国纸币',
    '民国三十年中国农民银行拾圆',
    '1941',
    '拾圆',
    '中国农民银行',
    [80, 800],
    '抗战时期中国农民银行法币，四行之一。',
  ),
  foreignNote(
    '美国1957年1美元银元券',
    '1957',
    '1美元',
    '$1',
    'SILVER CERTIFICATE',
    '纸',
    [60, 400],
    '蓝色印章银元券，可兑换银元的最后一批美元纸币。',
  ),
  foreignNote(
    '日本1963年伊藤博文1000日元',
    '1963',
    '1000日元',
    '千円',
    '日本銀行券',
    '纸',
    [50, 300],
    'C号券千元，正面伊藤博文像。',
  ),
  foreignNote(
    '英国2016年丘吉尔5英镑塑料钞',
    '2016',
    '5英镑',
    '£5',
    'BANK OF ENGLAND',
    '聚合物',
    [80, 300],
    '英格兰银行首张塑料钞，背面丘吉尔像。',
  ),
  foreignNote(
    '加拿大2012年20加元塑料钞',
    '2012',
    '20加元',
    '$20',
    'BANK OF CANADA',
    '聚合物',
    [150, 500],
    '加拿大边境系列塑料钞，正面伊丽莎白二世像。',
  ),
  foreignNote(
    '澳大利亚1988年建国200周年10澳元纪念钞',
    '1988',
    '10澳元',
    '$10',
    'AUSTRALIA',
    '聚合物',
    [200, 900],
    '世界首张流通塑料钞，纪念欧洲人定居澳大利亚200周年。',
  ),
  foreignNote(
    '欧元2002年首版10欧元',
    '2002',
    '10欧元',
    '€10',
    'BCE ECB EZB EKT EKP',
    '纸',
    [100, 400],
    '第一系列欧元纸币，罗马式建筑图案。',
  ),
  commemorative(
    '熊猫币',
    '熊猫金币1盎司',
    '1982',
    '无面额',
    '中华人民共和国',
    'gold',
    [15000, 40000],
    '首年熊猫金币，无面额，以重量标示。',
  ),
  commemorative(
    '熊猫币',
    '熊猫银币30克',
    '2019',
    '10元',
    '中华人民共和国',
    'silver',
    [150, 500],
    '改为公制克重后的熊猫普制银币，含纯银30克。',
  ),
  commemorative(
    '熊猫币',
    '熊猫银币27克',
    '1983',
    '10元',
    '中华人民共和国',
    'silver',
    [1500, 6000],
    '首年熊猫银币，精制，存世较少。',
  ),
  commemorative(
    '生肖币',
    '癸卯兔年生肖金币3克',
    '2023',
    '50元',
    '中华人民共和国',
    'gold',
    [1500, 3000],
    '2023中国癸卯（兔）年金银纪念币，圆形金币。',
  ),
  commemorative(
    '生肖币',
    '壬寅虎年生肖银币15克',
    '2022',
    '5元',
    '中华人民共和国',
    'silver',
    [150, 500],
    '2022中国壬寅（虎）年金银纪念币，彩色银币。',
  ),
  commemorative(
    '生肖币',
    '庚子鼠年生肖银币1公斤',
    '2020',
    '300元',
    '中华人民共和国',
    'silver',
    [8000, 16000],
    '2020中国庚子（鼠）年金银纪念币，公斤银币，限量发行。',
  ),
  commemorative(
    '纪念金银币',
    '故宫博物院成立90周年银币',
    '2015',
    '10元',
    '故宫博物院成立九十周年',
    'silver',
    [300, 1000],
    '故宫博物院成立90周年金银纪念币，银币30克。',
  ),
  commemorative(
    '纪念金银币',
    '中国人民银行成立70周年金币',
    '2018',
    '100元',
    '中国人民银行成立七十周年',
    'gold',
    [3500, 8000],
    '中国人民银行成立70周年金银纪念币，金币8克。',
  ),
]

/** A collecting supply: a slab holder, an album or a loupe (no grade, no year, no face value). */
export interface SupplyTemplate {
  title: string
  mall: SupplyLeaf
  /** On the picture: the slab's label, the album's cover, the loupe's magnification. */
  label: string
  material: string
  subtitle: string
  priceYuan: [number, number]
  description: string
}

const supply = (
  mall: SupplyLeaf,
  title: string,
  label: string,
  material: string,
  subtitle: string,
  priceYuan: [number, number],
  description: string,
): SupplyTemplate => ({ title, mall, label, material, subtitle, priceYuan, description })

export const SUPPLIES: SupplyTemplate[] = [
  supply(
    '评级盒',
    '透明亚克力钱币评级盒 适配39mm银元 10只装',
    '39mm 银元',
    '亚克力',
    '内置EVA垫圈，可放袁大头、龙洋等银元',
    [39, 89],
    '仿评级盒结构，上下卡扣密封，防氧化防划伤，附空白标签纸。',
  ),
  supply(
    '评级盒',
    '纪念币展示评级盒 适配27mm 20只装',
    '27mm 纪念币',
    '亚克力',
    '适配流通纪念币与一元硬币',
    [35, 69],
    '透明度高，标签位可手写品名与年份，便于整理归档。',
  ),
  supply(
    '评级盒',
    '纸币评级盒 适配人民币纸币 5只装',
    '纸币 160mm',
    '亚克力',
    '内衬无酸纸套，适配一至五版纸币',
    [49, 99],
    '纸币专用展示盒，防潮防折，适合陈列与邮寄。',
  ),
  supply(
    '评级盒',
    '评级币收纳箱 可放20枚评级盒',
    '20枚收纳',
    'ABS',
    '适配PCGS、NGC、GBCA标准尺寸评级盒',
    [69, 159],
    '带锁扣的硬壳收纳箱，内部卡槽分隔，外出鉴赏携带方便。',
  ),
  supply(
    '钱币册',
    '第五套人民币硬币收藏册 空册',
    '硬币收藏',
    '纸板/PVC',
    '按年份预留圆孔，1999—2019年份齐全',
    [19, 49],
    '按年份与面额排列的硬币册，适合集齐一整套流通币。',
  ),
  supply(
    '钱币册',
    '纸币收藏册 无酸内页 20页',
    '纸币收藏',
    'PU皮/无酸PP',
    '每页3格，可放60张纸币',
    [39, 99],
    '无酸内页不含增塑剂，长期存放不粘连、不泛黄。',
  ),
  supply(
    '钱币册',
    '银元收藏册 皮质 30枚',
    '银元收藏',
    'PU皮/EVA',
    '圆孔内径39mm，带透明护页',
    [59, 139],
    '仿皮封面烫金，内页EVA卡位，适合收藏银元与大型纪念银币。',
  ),
  supply(
    '钱币册',
    '古钱币收藏册 方孔钱 60枚',
    '古泉收藏',
    '纸板/PVC',
    '圆孔内径25mm，适配小平钱与折二钱',
    [29, 69],
    '按朝代分页，附钱文索引页，便于整理历代方孔钱。',
  ),
  supply(
    '放大镜',
    '10倍折叠钱币放大镜 带LED灯',
    '10×',
    '金属/光学玻璃',
    '三片组消色差镜片，口径21mm',
    [39, 99],
    '鉴赏钱币字口、边齿与包浆的常用倍率，LED补光看清细节。',
  ),
  supply(
    '放大镜',
    '20倍钱币鉴定放大镜 全金属',
    '20×',
    '金属/光学玻璃',
    '镜片口径18mm，带皮套',
    [49, 129],
    '高倍率观察铸造痕迹与币面细微磨损，鉴定评级币前的必备工具。',
  ),
  supply(
    '放大镜',
    '3倍手持阅读放大镜 大镜面',
    '3×',
    '亚克力/ABS',
    '镜面直径90mm，轻便手持',
    [19, 49],
    '低倍大视野，适合浏览整张纸币与钱币册。',
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
