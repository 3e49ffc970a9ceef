import { z } from 'zod'

/**
 * Share info (spec §3 "Share info: title, desc, link, imgUrl"): what a page offers when it is
 * shared — to a chat or the timeline in the messaging app (JS-SDK), through the native app's
 * bridge, or as a copied link elsewhere. `link` is an absolute URL of this shop without a hash;
 * `imgUrl` an absolute URL of a picture (the platform fetches it from its own servers).
 */
export const ShareInfoSchema = z.object({
  title: z.string().min(1).max(120),
  desc: z.string().max(240),
  link: z.url().max(2048),
  imgUrl: z.url().max(2048),
  /**
   * The title for the messaging app's timeline, whose card shows no description: the title with
   * the price, on pages that have one (issue 11). Absent: the timeline uses `title`.
   */
  timelineTitle: z.string().min(1).max(120).optional(),
})
export type ShareInfo = z.infer<typeof ShareInfoSchema>
