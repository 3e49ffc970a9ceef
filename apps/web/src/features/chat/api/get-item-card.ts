import { LotDetailSchema } from '@numisma/contracts/catalog'
import type { ChatCard } from '@numisma/contracts/chat'
import { useQuery } from '@tanstack/react-query'
import { request } from '../../../lib/api-client'
import { getMallItem } from '../../../lib/mall/get-mall-item'

/** What the chat was opened about: `/chat?lot=<id>` or `/chat?productNo=<no>`. */
export type ItemRef = { kind: 'lot'; ref: string } | { kind: 'mall'; ref: string }

/**
 * The card pinned above the input before it is sent, read from the item itself (the server fills
 * the stored card the same way from the ref).
 */
export async function getItemCard(item: ItemRef): Promise<ChatCard> {
  if (item.kind === 'lot') {
    const lot = await request({
      path: `/auction/${encodeURIComponent(item.ref)}`,
      defaultError: 'GET_ITEM_INFO_FAILED',
      schema: LotDetailSchema,
    })
    return {
      kind: 'lot',
      ref: item.ref,
      title: lot.title,
      subtitle: lot.subtitle,
      image: lot.image,
      price: lot.price ?? lot.startPrice,
      link: `/productDetail?id=${lot.id}`,
    }
  }
  const mall = await getMallItem(item.ref)
  return {
    kind: 'mall',
    ref: item.ref,
    title: mall.title,
    subtitle: mall.subtitle,
    image: mall.image,
    price: mall.price,
    link: `/productDetail?productNo=${encodeURIComponent(mall.productNo)}`,
  }
}

export function useItemCard(item: ItemRef | null) {
  return useQuery({
    queryKey: ['chat', 'item-card', item?.kind, item?.ref],
    queryFn: () => (item ? getItemCard(item) : Promise.reject(new Error('no item'))),
    enabled: item !== null,
  })
}
