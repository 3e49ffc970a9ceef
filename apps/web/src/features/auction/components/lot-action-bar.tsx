import type { LotDetail } from '@numisma/contracts/catalog'
import { Button } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { isLotClosed } from '../../../components/lot-card'
import { readSession } from '../../../lib/cookies'
import { signInUrl } from '../../../lib/guard'

/**
 * The bottom bar of a lot. Bidding arrives in a later issue, so this only says what is true now:
 * a closed lot is closed, an anonymous visitor signs in first, a signed-in user waits for bidding.
 */
export function LotActionBar({ lot }: { lot: LotDetail }) {
  const { t } = useTranslation()
  const location = useLocation()
  if (isLotClosed(lot)) {
    return (
      <Button block disabled className="action-bar-button">
        {lot.status === 'sold' ? t('lot.status.sold') : t('lot.status.unsold')}
      </Button>
    )
  }
  if (!readSession()) {
    const wanted = location.pathname + location.search
    return (
      <Button
        block
        color="primary"
        className="action-bar-button"
        onClick={() => window.location.assign(signInUrl(wanted))}
      >
        {t('lot.signInToBid')}
      </Button>
    )
  }
  return (
    <Button block disabled color="primary" className="action-bar-button">
      {lot.status === 'preview' ? t('lot.notOpenYet') : t('lot.biddingSoon')}
    </Button>
  )
}
