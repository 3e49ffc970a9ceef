import { useSearchParams } from 'react-router'
import { PageMetaContext, usePageMeta } from '../components/page-meta-context'
import { ProductDetailPage } from '../features/auction/pages/product-detail-page'
import { MallItemPage } from '../features/mall/pages/mall-item-page'
import { ROUTES, titleFor } from './routes'

const PRODUCT_DETAIL = ROUTES.find((r) => r.path === '/productDetail')!

/**
 * Spec §2's one route for two features: /productDetail?id=<lotId> is an auction lot,
 * ?productNo=<no> a mall item. Composed here because features do not import each other.
 */
export function ProductDetailRoute() {
  const [params] = useSearchParams()
  const productNo = params.get('productNo')?.trim()
  const meta = usePageMeta()
  if (!productNo) return <ProductDetailPage />
  return (
    <PageMetaContext value={{ ...meta, title: titleFor(PRODUCT_DETAIL, params.toString()) }}>
      <MallItemPage productNo={productNo} />
    </PageMetaContext>
  )
}
