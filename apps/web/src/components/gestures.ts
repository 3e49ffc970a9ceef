import { NoticeBar, PullToRefresh, Swiper } from 'antd-mobile'

/**
 * antd-mobile's components that move, under a finger or on their own, with react-spring and
 * @use-gesture beneath them (about 40 KB gzip): the home page's first render does without them
 * (issue 13) and takes them through {@link useGestures} right after it. A chunk of its own
 * (first-load-chunks.ts).
 */
export { NoticeBar, PullToRefresh, Swiper }
