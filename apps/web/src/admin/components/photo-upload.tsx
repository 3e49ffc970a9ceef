import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons'
import { App, Button, Image, Tag, Tooltip, Upload, type UploadFile } from 'antd'
import { useEffect, useRef, useState } from 'react'
import { staffErrorMessage } from '../staff-api'
import { moveForward, PHOTO_MAX_BYTES, photoThumb, readAsDataUrl, uploadPhoto } from './photo-api'
import { dropSlot, fillSlot, fitsInField, settleSlots, type PhotoSlot } from './photo-order'
import styles from './photo-upload.module.css'

export interface PhotoUploadProps {
  /**
   * The photos' full-size URLs in order, the first being the cover (what a lot's or an item's
   * `images` holds; a banner's `image` is `value[0]`).
   */
  value?: string[]
  /**
   * Called with the new list after each finished upload, removal or move. Photos chosen together
   * join it in the order they were chosen, each once it and every one chosen before it is in.
   */
  onChange?: (urls: string[]) => void
  /** At most this many photos (default 20; 1 for a banner or a cover). */
  max?: number
  /** A line under the cards, e.g. the size a banner should have. */
  hint?: string
  disabled?: boolean
}

const TEXT = {
  add: '上传照片',
  cover: '封面',
  forward: '前移（第一张为封面）',
  tooLarge: '照片不能超过 15 MB',
  failed: '照片上传失败',
  tooMany: (max: number) => `最多 ${max} 张照片，多选的未上传`,
  defaultHint: '支持 JPEG、PNG、WebP，单张不超过 15 MB；第一张为封面',
}

/**
 * The console's photo field (antd Upload, picture cards): each chosen file is posted as a data URL
 * to `POST /admin/photos`, which re-encodes it into its sizes; the field's value is the list of
 * full-size URLs in the order the files were chosen (not the order their uploads finish: each
 * chosen file holds its place as a card that fills when its upload is done, and one that fails
 * goes with a message), reorderable (a card moves one place forward) and removable. Works as a
 * controlled input inside a ProForm / Form.Item.
 */
export function PhotoUpload({ value = [], onChange, max = 20, hint, disabled }: PhotoUploadProps) {
  const { message } = App.useApp()
  const [slots, setSlots] = useState<PhotoSlot[]>([])
  const [preview, setPreview] = useState<string | null>(null)
  // Uploads finish one after another: each works on the newest lists, not the ones it started with.
  const current = useRef(value)
  const waiting = useRef(slots)
  useEffect(() => {
    current.current = value
  }, [value])
  const change = (urls: string[]) => {
    current.current = urls
    onChange?.(urls)
  }
  /** Takes the new slots and lets the finished ones at their head join the value, in order. */
  const updateSlots = (next: PhotoSlot[]) => {
    const settled = settleSlots(current.current, next, max)
    if (settled.moved > 0) change(settled.urls)
    waiting.current = settled.slots
    setSlots(settled.slots)
  }

  const saved: UploadFile[] = value.map((url, index) => ({
    uid: `${index}:${url}`,
    name: url.split('/').slice(-2).join('/'),
    status: 'done' as const,
    url,
    thumbUrl: photoThumb(url),
  }))
  const onTheWay: UploadFile[] = slots.map((slot) =>
    slot.url === null
      ? { uid: `slot:${slot.uid}`, name: slot.name, status: 'uploading', percent: 50 }
      : {
          uid: `slot:${slot.uid}`,
          name: slot.name,
          status: 'done',
          url: slot.url,
          thumbUrl: photoThumb(slot.url),
        },
  )
  const files = [...saved, ...onTheWay]

  return (
    <>
      <Upload
        listType="picture-card"
        accept="image/jpeg,image/png,image/webp"
        multiple={max > 1}
        disabled={disabled}
        fileList={files}
        beforeUpload={(file, pick) => {
          if (file.size > PHOTO_MAX_BYTES) {
            void message.error(TEXT.tooLarge)
            return Upload.LIST_IGNORE
          }
          const taken = current.current.length + waiting.current.length
          if (!fitsInField(taken, pick.indexOf(file), max)) {
            void message.warning({ key: 'photo-max', content: TEXT.tooMany(max) })
            return Upload.LIST_IGNORE
          }
          return true
        }}
        customRequest={({ file }) => {
          const blob = file as File
          const uid = (file as UploadFile).uid ?? `${blob.name}:${Date.now()}`
          // rc-upload posts one pick's files in the order they were chosen: the slot keeps it.
          updateSlots([...waiting.current, { uid, name: blob.name, url: null }])
          void readAsDataUrl(blob)
            .then(uploadPhoto)
            .then(
              (photo) => updateSlots(fillSlot(waiting.current, uid, photo.url)),
              (error: unknown) => {
                void message.error(`${blob.name}：${staffErrorMessage(error, TEXT.failed)}`)
                updateSlots(dropSlot(waiting.current, uid))
              },
            )
        }}
        onRemove={(file) => {
          if (file.uid.startsWith('slot:')) {
            updateSlots(dropSlot(waiting.current, file.uid.slice('slot:'.length)))
            return false
          }
          const index = value.findIndex((_, i) => `${i}:${value[i]}` === file.uid)
          if (index >= 0) change(value.filter((_, i) => i !== index))
          return false
        }}
        onPreview={(file) => setPreview(file.url ?? null)}
        itemRender={(node, file) => {
          const index = value.findIndex((_, i) => `${i}:${value[i]}` === file.uid)
          return (
            <div className={styles.item}>
              {node}
              {files[0]?.uid === file.uid && (
                <Tag color="gold" className={styles.cover}>
                  {TEXT.cover}
                </Tag>
              )}
              {index > 0 && !disabled && (
                <Tooltip title={TEXT.forward}>
                  <Button
                    size="small"
                    className={styles.forward}
                    icon={<ArrowLeftOutlined />}
                    aria-label={TEXT.forward}
                    onClick={() => change(moveForward(value, index))}
                  />
                </Tooltip>
              )}
            </div>
          )
        }}
      >
        {files.length >= max ? null : (
          <div className={styles.add}>
            <PlusOutlined />
            <span>{TEXT.add}</span>
          </div>
        )}
      </Upload>
      <div className={styles.hint}>{hint ?? TEXT.defaultHint}</div>
      {preview && (
        <Image
          style={{ display: 'none' }}
          src={preview}
          preview={{ visible: true, src: preview, onVisibleChange: (v) => !v && setPreview(null) }}
        />
      )}
    </>
  )
}
