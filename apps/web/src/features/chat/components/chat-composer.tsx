import { CHAT_TEXT_MAX } from '@numisma/contracts/chat'
import { Button, TextArea } from 'antd-mobile'
import { PictureOutline } from 'antd-mobile-icons'
import { useRef } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { ChatPictureInput } from '../../../components/chat-picture-input'
import { useComposerText } from '../../../lib/chat/use-composer-text'
import styles from './chat-composer.module.css'

/** The input row: a picture from the phone, the text, 发送. */
export function ChatComposer({
  onText,
  onPicture,
}: {
  onText: (text: string) => void
  onPicture: (file: File) => void
}) {
  const { t } = useTranslation()
  const { text, setText, empty, submit } = useComposerText(onText)
  const picker = useRef<HTMLInputElement>(null)
  return (
    <div className={styles.row}>
      <button
        type="button"
        className={styles.pictureButton}
        aria-label={t('chat.picture')}
        data-testid="chat-picture"
        onClick={() => picker.current?.click()}
      >
        <PictureOutline />
      </button>
      <ChatPictureInput inputRef={picker} testId="chat-picture-input" onPicture={onPicture} />
      <TextArea
        className={styles.input}
        value={text}
        onChange={setText}
        placeholder={t('chat.placeholder')}
        autoSize={{ minRows: 1, maxRows: 4 }}
        maxLength={CHAT_TEXT_MAX}
        rows={1}
        data-testid="chat-input"
      />
      <Button
        color="primary"
        size="small"
        className={styles.send}
        disabled={empty}
        onClick={submit}
        data-testid="chat-send"
      >
        {t('chat.send')}
      </Button>
    </div>
  )
}
