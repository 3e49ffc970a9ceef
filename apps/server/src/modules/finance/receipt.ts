import { dataUrlToJpeg } from '../../platform/images'

/** The longer side of a stored receipt; a phone photo of a bank slip stays legible at this size. */
export const RECEIPT_MAX_PX = 1600

/** Turns the receipt a user sent into what we keep; throws RECEIPT_INVALID when it is no picture. */
export interface ReceiptDecoder {
  normalise(dataUrl: string): Promise<Buffer>
}

/** The photo of a bank slip as a clean JPEG (platform/images.ts says how and why). */
export const sharpReceipts: ReceiptDecoder = {
  normalise: (dataUrl) =>
    dataUrlToJpeg(dataUrl, { maxPx: RECEIPT_MAX_PX, invalid: 'RECEIPT_INVALID' }),
}
