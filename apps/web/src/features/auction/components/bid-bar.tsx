import { useState } from 'react'
import type { LotDetail } from '@numisma/contracts/catalog'
import { errorText } from '@numisma/contracts/errors'
import { formatFen } from '@numisma/contracts/money'
import { randomUuid } from '@numisma/contracts/signing'
import { Button, Dialog, Tag } from 'antd-mobile'
import { AddOutline, MinusOutline } from 'antd-mobile-icons'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { isLotClosed, priceLabelKey } from '../../../components/lot-card'
import { Price } from '../../../components/price'
import { readSession } from '../../../lib/cookies'
import { signInUrl } from '../../../lib/guard'
import { showSuccess, showToast } from '../../../lib/toast'
import { useLocale } from '../../../lib/use-locale'
import { useCancelProxy } from '../api/cancel-proxy'
import { useBidHistory } from '../api/get-bid-history'
import { usePriceSteps } from '../api/get-price-steps'
import { usePlaceBid } from '../api/place-bid'
import { bidErrorAction } from './bid-error'
import { effectiveAmount, minimumBid, nextAmount, prevAmount, type BidMode } from './bid-grid'

const yuan = (fen: number) => `¥${formatFen(fen)}`

/**
 * The sticky bid bar of a lot (DESIGN §7): price and where the caller stands, a stepper over valid
 * grid amounts only, direct or proxy, and a confirm dialog before anything is sent.
 */
export function BidBar({ lot }: { lot: LotDetail }) {
  const { t } = useTranslation()
  const location = useLocation()
  const signedIn = readSession() !== null
  const history = useBidHistory(signedIn ? lot.id : undefined)
  const closed = isLotClosed(lot)
  const everBid = history.data?.some((record) => record.mine) ?? false

  const signIn = () => window.location.assign(signInUrl(location.pathname + location.search))

  return (
    <div className="bid-bar" data-testid="bid-bar" data-lot-id={lot.id}>
      <div className="bid-bar-head">
        <div className="bid-bar-price">
          <span className="bid-bar-label">{t(priceLabelKey(lot))}</span>
          <Price fen={lot.price ?? lot.startPrice} size="md" className="bid-bar-current" />
          <span className="bid-bar-count" data-testid="bid-count">
            {t('bid.bidCount', { count: lot.bidCount })}
          </span>
        </div>
      </div>
      {signedIn && (lot.leading || everBid || lot.myMax !== null) ? (
        <BidStanding lot={lot} closed={closed} />
      ) : null}
      {closed ? (
        <Button block disabled className="action-bar-button">
          {lot.status === 'sold' ? t('lot.status.sold') : t('lot.status.unsold')}
        </Button>
      ) : lot.status === 'preview' ? (
        <Button block disabled color="primary" className="action-bar-button">
          {t('bid.notOpen')}
        </Button>
      ) : !signedIn ? (
        <Button block color="primary" className="action-bar-button" onClick={signIn}>
          {t('bid.signIn')}
        </Button>
      ) : (
        <BidControls lot={lot} onSignIn={signIn} />
      )}
    </div>
  )
}

function BidStanding({ lot, closed }: { lot: LotDetail; closed: boolean }) {
  const { t } = useTranslation()
  const cancel = useCancelProxy()

  const cancelProxy = async () => {
    if (lot.myMax === null) return
    const ok = await Dialog.confirm({
      content: t('bid.cancelProxyConfirm', { amount: yuan(lot.myMax) }),
      confirmText: t('bid.cancelProxy'),
      cancelText: t('common.cancel'),
    })
    if (!ok) return
    try {
      await cancel.mutateAsync(lot.id)
      showSuccess(t('bid.cancelled'))
    } catch {
      // request() has toasted the server's reason; useCancelProxy refreshes the lot either way.
    }
  }

  return (
    <div className="bid-bar-standing" data-testid="bid-standing">
      {lot.leading ? (
        <Tag color="success" fill="solid">
          {t('bid.leading')}
        </Tag>
      ) : (
        <Tag color="danger" fill="solid">
          {t('bid.outbid')}
        </Tag>
      )}
      {lot.myMax !== null ? (
        <>
          <span className="bid-bar-mymax">{t('bid.myMax', { amount: yuan(lot.myMax) })}</span>
          {!closed ? (
            <button
              type="button"
              className="bid-bar-link"
              disabled={cancel.isPending}
              onClick={() => void cancelProxy()}
            >
              {t('bid.cancelProxy')}
            </button>
          ) : null}
        </>
      ) : null}
    </div>
  )
}

function BidControls({ lot, onSignIn }: { lot: LotDetail; onSignIn: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const locale = useLocale()
  const steps = usePriceSteps()
  const place = usePlaceBid()
  const [mode, setMode] = useState<BidMode>(lot.leading ? 'proxy' : 'direct')
  const [chosen, setChosen] = useState<number | null>(null)

  const table = steps.data ?? []
  const minimum = minimumBid(lot, mode, table)
  const amount = minimum === undefined ? undefined : effectiveAmount(chosen, minimum, table)
  const down =
    amount === undefined || minimum === undefined ? undefined : prevAmount(amount, minimum, table)
  const up = amount === undefined ? undefined : nextAmount(amount, table)
  const directBlocked = mode === 'direct' && lot.leading
  const proxy = mode === 'proxy'

  const submit = async () => {
    if (amount === undefined || directBlocked) return
    const ok = await Dialog.confirm({
      content: (
        <div className="bid-confirm">
          <p className="bid-confirm-amount">
            {proxy
              ? t('bid.confirmProxy', { amount: yuan(amount) })
              : t('bid.confirmDirect', { amount: yuan(amount) })}
          </p>
          {proxy ? <p className="bid-confirm-note">{t('bid.confirmProxyNote')}</p> : null}
        </div>
      ),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    })
    if (!ok) return
    try {
      const result = await place.mutateAsync({
        bid: { lotId: lot.id, amount, proxy },
        // One key per confirmed action: a network retry of this call is replayed, not re-bid.
        idempotencyKey: randomUuid(),
      })
      setChosen(null)
      showSuccess(
        !result.leading ? t('bid.notLeading') : proxy ? t('bid.proxySuccess') : t('bid.success'),
      )
    } catch (error) {
      await showBidError(error)
    }
  }

  const showBidError = async (error: unknown) => {
    const action = bidErrorAction(error, errorText('BID_FAILED', locale))
    switch (action.kind) {
      case 'recharge': {
        const go = await Dialog.confirm({
          title: t('bid.quotaTitle'),
          content: (
            <div className="bid-confirm" data-testid="quota-dialog">
              <p>{action.message}</p>
              {action.limit !== undefined ? (
                <p className="bid-confirm-note">
                  {t('bid.quotaLimit', { amount: yuan(action.limit) })}
                </p>
              ) : null}
            </div>
          ),
          confirmText: t('bid.recharge'),
          cancelText: t('bid.later'),
        })
        if (go) void navigate(action.path)
        return
      }
      case 'sign-in':
        showToast(action.message)
        onSignIn()
        return
      case 'refresh':
      case 'toast':
        showToast(action.message)
        return
      case 'none':
        return
    }
  }

  return (
    <div className="bid-bar-controls">
      <div className="bid-mode" role="radiogroup">
        {(['direct', 'proxy'] as const).map((key) => (
          <button
            key={key}
            type="button"
            role="radio"
            aria-checked={mode === key}
            className={mode === key ? 'bid-mode-option bid-mode-on' : 'bid-mode-option'}
            data-mode={key}
            onClick={() => {
              setMode(key)
              setChosen(null)
            }}
          >
            {key === 'direct' ? t('bid.direct') : t('bid.proxy')}
          </button>
        ))}
        <p className="bid-mode-hint">{proxy ? t('bid.proxyHint') : t('bid.directHint')}</p>
      </div>
      <div className="bid-bar-row">
        <div className="bid-stepper" aria-label={t('bid.amount')}>
          <button
            type="button"
            className="bid-stepper-button"
            aria-label={t('bid.decrease')}
            disabled={down === undefined}
            onClick={() => down !== undefined && setChosen(down)}
          >
            <MinusOutline />
          </button>
          <output className="bid-stepper-value" data-testid="bid-amount" data-fen={amount ?? ''}>
            {amount === undefined ? '—' : yuan(amount)}
          </output>
          <button
            type="button"
            className="bid-stepper-button"
            aria-label={t('bid.increase')}
            disabled={up === undefined}
            onClick={() => up !== undefined && setChosen(up)}
          >
            <AddOutline />
          </button>
        </div>
        <Button
          color="primary"
          className="bid-submit"
          data-testid="bid-submit"
          disabled={amount === undefined || directBlocked}
          loading={place.isPending}
          onClick={() => void submit()}
        >
          {directBlocked
            ? t('bid.alreadyLeading')
            : proxy
              ? lot.leading && lot.myMax !== null
                ? t('bid.raiseProxy')
                : t('bid.submitProxy')
              : t('bid.submitDirect')}
        </Button>
      </div>
    </div>
  )
}
