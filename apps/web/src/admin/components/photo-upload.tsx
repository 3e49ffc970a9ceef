import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons'
import { App, Button, Image, Tag, Tooltip, Upload, type UploadFile } from 'antd'
import { useEffect, useRef, useState } from 'react'
import { StaffApiError } from '../staff-api'
import { moveForward, PHOTO_MAX_BYTES, photoThumb, readAsDataUrl, uploadPhoto } from './photo-api'
import styles from './photo-upload.module.css'

export interface PhotoUploadProps {
  /**
   * The photos' full-size URLs in order, the first being the cover (what a lot's or an item's
   * `images` holds; a banner's `image` is `value[0]`).
   */
  value?: string[]
  /** Called with the new list after each finished upload, removal or move. */
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
  defaultHint: '支持 JPEG、PNG、WebP，单张不超过 15 MB；第一张为封面',
}

/**
 * The console's photo field (antd Upload, picture cards): each chosen file is posted as a data URL
 * to `POST /admin/photos`, which re-encodes it into its sizes; the field's value is the list of
 * full-size URLs, reorderable (a card moves one place forward) and removable. Works as a controlled
 * input inside a ProForm / Form.Item.
 */
export function PhotoUpload({ value = [], onChange, max = 20, hint, disabled }: PhotoUploadProps) {
  const { message } = App.useApp()
  const [pending, setPending] = useState<UploadFile[]>([])
  const [preview, setPreview] = useState<string | null>(null)
  // Uploads finish one after another: each adds to the newest list, not the one it started with.
  const current = useRef(value)
  useEffect(() => {
    current.current = value
  }, [value])
  const change = (urls: string[]) => {
    current.current = urls
    onChange?.(urls)
  }

  const files: UploadFile[] = [
    ...value.map((url, index) => ({
      uid: `${index}:${url}`,
      name: url.split('/').slice(-2).join('/'),
      status: 'done' as const,
      url,
      thumbUrl: photoThumb(url),
    })),
    ...pending,
  ]

  return (
    <>
      <Upload
        listType="picture-card"
        accept="image/jpeg,image/png,image/webp"
        multiple={max > 1}
        disabled={disabled}
        fileList={files}
        beforeUpload={(file) => {
          if (file.size > PHOTO_MAX_BYTES) {
            void message.error(TEXT.tooLarge)
            return Upload.LIST_IGNORE
          }
          return true
        }}
        customRequest={({ file }) => {
          const blob = file as File
          const uid = `pending:${(file as UploadFile).uid ?? blob.name}`
          setPending((list) => [
            ...list,
            { uid, name: blob.name, status: 'uploading', percent: 50 },
          ])
          void readAsDataUrl(blob)
            .then(uploadPhoto)
            .then(
              (photo) => change([...current.current, photo.url].slice(0, max)),
              (error: unknown) =>
                message.error(error instanceof StaffApiError ? error.message : TEXT.failed),
            )
            .finally(() => setPending((list) => list.filter((f) => f.uid !== uid)))
        }}
        onRemove={(file) => {
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
              {index === 0 && (
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
