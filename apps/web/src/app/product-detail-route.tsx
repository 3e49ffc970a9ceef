import { useSearchParams } from 'react-router'
import { ProductDetailPage } from '../features/auction/pages/product-detail-page'
import { MallItemPage } from '../features/mall/pages/mall-item-page'

/**
 * Spec §2's one route for two features: /productDetail?id=<lotId> is an auction lot,
 * ?productNo=<no> a mall item. Composed here because features do not import each other.
 */
export function ProductDetailRoute() {
  const [params] = useSearchParams()
  const productNo = params.get('productNo')?.trim()
  return productNo ? <MallItemPage productNo={productNo} /> : <ProductDetailPage />
}
