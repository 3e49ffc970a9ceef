import { Button, Popup } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import styles from './agreement-popup.module.css'

export interface AgreementPopupProps {
  visible: boolean
  onClose: () => void
  onAccept: () => void
}

export function AgreementPopup({ visible, onClose, onAccept }: AgreementPopupProps) {
  const { t } = useTranslation()
  const paragraphs = t('passport.agreement', { returnObjects: true })
  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      onClose={onClose}
      bodyClassName={styles.popup}
      showCloseButton
    >
      <h2 className={styles.title}>{t('passport.agreementTitle')}</h2>
      <div className={styles.text}>
        {paragraphs.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </div>
      <Button block color="primary" onClick={onAccept}>
        {t('passport.agreementAccept')}
      </Button>
    </Popup>
  )
}
