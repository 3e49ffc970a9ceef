import { useState } from 'react'
import type { NotLeading } from '@numisma/contracts/bidding'
import type { LotDetail } from '@numisma/contracts/catalog'
import { errorText } from '@numisma/contracts/errors'
import { formatFen } from '@numisma/contracts/money'
import { randomUuid } from '@numisma/contracts/signing-headers'
import { AUCTION_PAYMENT_DAYS, DEFAULT_HANDLING_FEE_BPS, handlingFee } from '@numisma/domain/fees'
import { nextAmount, type PriceStep } from '@numisma/domain/increments'
import { Button, Dialog, NumberKeyboard, Tag, VirtualInput } from 'antd-mobile'
import { AddOutline, MinusOutline } from 'antd-mobile-icons'
import { useTranslation } from '../../../lib/i18n'
import { Link, useLocation, useNavigate } from 'react-router'
import { ActionBarButton } from '../../../components/action-bar-button'
import { Price } from '../../../components/price'
import { inBackground } from '../../../lib/background'
import { readSession } from '../../../lib/cookies'
import { startSignIn } from '../../../lib/in-app/sign-in'
import { closedStanding, isLotClosed, shownPrice, unsoldHighestBid } from '../../../lib/lot-outcome'
import { showSuccess, showToast } from '../../../lib/toast'
import { useLocale } from '../../../lib/use-locale'
import { useCancelProxy } from '../api/cancel-proxy'
import { useHasBidOn } from '../api/get-my-bids'
import { usePriceSteps } from '../api/get-price-steps'
import { usePlaceBid } from '../api/place-bid'
import {
  checkTypedBid,
  effectiveAmount,
  minimumBid,
  previousAmount,
  type BidMode,
  type TypedBid,
} from './bid-amount'
import styles from './bid-bar.module.css'
import { bidErrorAction, rechargeHref } from './bid-error'

const yuan = (fen: number) => `¥${formatFen(fen)}`

/** Where a won lot's order is paid: the order list's pending-payment tab. */
export const PAY_ORDERS_PATH = '/order/list?tab=pay'

/**
 * The sticky bid bar of a lot (DESIGN §7): price and where the caller stands; while the lot is
 * open, a stepper over valid grid amounts and a keypad to type one, direct or proxy, and a confirm
 * dialog before anything is sent; once it is closed, the outcome and, for the winner, the way on
 * to pay.
 */
export function BidBar({ lot }: { lot: LotDetail }) {
  const { t } = useTranslation()
  const location = useLocation()
  const signedIn = readSession() !== null
  const hasBid = useHasBidOn(signedIn ? lot.id : undefined)
  const closed = isLotClosed(lot)
  const everBid = hasBid.data ?? false
  const tookPart = signedIn && (lot.leading || lot.won || everBid || lot.myMax !== null)
  const price = shownPrice(lot)

  const signIn = () => startSignIn(location.pathname + location.search)

  return (
    <div className={styles.bar} data-testid="bid-bar" data-lot-id={lot.id}>
      <div className={styles.head}>
        <div className={styles.price}>
          <span className={styles.label}>{t(price.labelKey)}</span>
          <Price
            fen={price.fen}
            size="md"
            className={styles.current}
            muted={lot.status === 'unsold'}
          />
          <span className={styles.count} data-testid="bid-count">
            {t('bid.bidCount', { count: lot.bidCount })}
          </span>
        </div>
      </div>
      {closed ? (
        <LotResult lot={lot} tookPart={tookPart} />
      ) : (
        <>
          {tookPart ? <BidStanding lot={lot} /> : null}
          {lot.status === 'preview' ? (
            <ActionBarButton block disabled color="primary">
              {t('bid.notOpen')}
            </ActionBarButton>
          ) : !signedIn ? (
            <ActionBarButton block color="primary" onClick={signIn}>
              {t('bid.signIn')}
            </ActionBarButton>
          ) : (
            <BidControls lot={lot} onSignIn={signIn} />
          )}
        </>
      )}
    </div>
  )
}

/** A closed lot: sold or unsold, and to a bidder whether they won (with the way to pay) or not. */
function LotResult({ lot, tookPart }: { lot: LotDetail; tookPart: boolean }) {
  const { t } = useTranslation()
  const standing = closedStanding(lot, tookPart)
  const highest = unsoldHighestBid(lot)
  const outcome = standing ?? lot.status
  return (
    <div className={styles.result} data-testid="lot-result" data-outcome={outcome}>
      <div className={styles.resultTags}>
        <Tag color={lot.status === 'sold' ? 'primary' : 'default'} fill="outline">
          {lot.status === 'sold' ? t('lot.status.sold') : t('lot.status.unsold')}
        </Tag>
        {standing === 'won' ? (
          <Tag color="success" fill="solid">
            {t('bid.won')}
          </Tag>
        ) : standing === 'lost' ? (
          <Tag color="default" fill="solid">
            {t('bid.lost')}
          </Tag>
        ) : null}
        {highest !== null ? (
          <span className={styles.resultNote}>
            {t('bid.unsoldHighest', { amount: yuan(highest) })}
          </span>
        ) : null}
      </div>
      {standing === 'won' ? (
        <>
          <p className={styles.resultNote}>{t('bid.wonNote')}</p>
          <Link
            className={styles.payLink}
            to={PAY_ORDERS_PATH}
            data-testid="pay-link"
            data-order-id={lot.orderId ?? ''}
          >
            {t('bid.pay')}
          </Link>
        </>
      ) : (
        <ActionBarButton block disabled>
          {lot.status === 'sold' ? t('bid.closedSold') : t('bid.closedUnsold')}
        </ActionBarButton>
      )}
    </div>
  )
}

function BidStanding({ lot }: { lot: LotDetail }) {
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
      // request() has toasted the server's reason (or alerted that the phone is offline);
      // useCancelProxy refreshes the lot unless the call never left the phone.
    }
  }

  return (
    <div className={styles.standing} data-testid="bid-standing">
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
          <span className={styles.myMax}>{t('bid.myMax', { amount: yuan(lot.myMax) })}</span>
          <button
            type="button"
            className={styles.link}
            disabled={cancel.isPending}
            onClick={() => {
              inBackground(cancelProxy())
            }}
          >
            {t('bid.cancelProxy')}
          </button>
        </>
      ) : null}
    </div>
  )
}

function BidControls({ lot, onSignIn }: { lot: LotDetail; onSignIn: () => void }) {
  const steps = usePriceSteps()
  const table = steps.data ?? []
  if (table.length === 0) {
    return (
      <div className={styles.row}>
        <ActionBarButton block disabled loading={steps.isPending}>
          {steps.isPending ? '' : '—'}
        </ActionBarButton>
      </div>
    )
  }
  return <ReadyBidControls lot={lot} onSignIn={onSignIn} steps={table} />
}

function ReadyBidControls({
  lot,
  onSignIn,
  steps,
}: {
  lot: LotDetail
  onSignIn: () => void
  steps: readonly PriceStep[]
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const location = useLocation()
  const locale = useLocale()
  const place = usePlaceBid()
  const [mode, setMode] = useState<BidMode>(lot.leading ? 'proxy' : 'direct')
  const [chosen, setChosen] = useState<number | null>(null)
  /** Whole yuan as typed on the keypad; null when the stepper's amount stands. */
  const [draft, setDraft] = useState<string | null>(null)
  const [typing, setTyping] = useState(false)
  const [notLeading, setNotLeading] = useState<NotLeading | null>(null)

  const minimum = minimumBid(lot, mode, steps)
  const stepped = effectiveAmount(chosen, minimum, steps)
  const typed: TypedBid | null = draft === null ? null : checkTypedBid(draft, minimum, steps)
  const amount = typed === null ? stepped : typed.kind === 'valid' ? typed.amount : undefined
  const down = amount === undefined ? undefined : previousAmount(amount, minimum, steps)
  const up = amount === undefined ? undefined : nextAmount(amount, steps)
  const directBlocked = mode === 'direct' && lot.leading
  const proxy = mode === 'proxy'

  const choose = (fen: number) => {
    setChosen(fen)
    setDraft(null)
  }

  const finishTyping = () => {
    setTyping(false)
    if (draft === null) return
    const check = checkTypedBid(draft, minimum, steps)
    // A valid amount becomes the stepper's; anything else stays on screen with what to do.
    if (check.kind === 'valid') choose(check.amount)
    else if (check.kind === 'empty') setDraft(null)
  }

  const submit = async () => {
    if (amount === undefined || directBlocked) return
    const ok = await Dialog.confirm({
      content: (
        <div className={styles.confirm}>
          <p className={styles.confirmAmount}>
            {proxy
              ? t('bid.confirmProxy', { amount: yuan(amount) })
              : t('bid.confirmDirect', { amount: yuan(amount) })}
          </p>
          {proxy ? <p className={styles.confirmNote}>{t('bid.confirmProxyNote')}</p> : null}
          {/* What winning at this price costs, before the bid and not only on the order. */}
          <p className={styles.confirmNote} data-testid="bid-fee-note">
            {t('bid.feeNote', {
              rate: DEFAULT_HANDLING_FEE_BPS / 100,
              fee: yuan(handlingFee(amount)),
              days: AUCTION_PAYMENT_DAYS,
            })}
          </p>
        </div>
      ),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    })
    if (!ok) return
    setNotLeading(null)
    try {
      const result = await place.mutateAsync({
        bid: { lotId: lot.id, amount, proxy },
        // One key per confirmed action: a network retry of this call is replayed, not re-bid.
        idempotencyKey: randomUuid(),
      })
      setChosen(null)
      setDraft(null)
      if (result.leading) showSuccess(proxy ? t('bid.proxySuccess') : t('bid.success'))
      else if (result.notLeading) setNotLeading(result.notLeading)
      else showToast(t('bid.notLeading'))
    } catch (error) {
      // usePlaceBid refreshes the lot unless the bid never left the phone (offline, aborted).
      await showBidError(error)
    }
  }

  const showBidError = async (error: unknown) => {
    const action = bidErrorAction(error, errorText('BID_FAILED', locale))
    switch (action.kind) {
      case 'recharge': {
        const { limit, exposure } = action
        const go = await Dialog.confirm({
          title: t('bid.quotaTitle'),
          content: (
            <div className={styles.confirm} data-testid="quota-dialog">
              <p>{action.message}</p>
              {limit !== undefined ? (
                <p className={styles.confirmNote}>
                  {exposure === undefined
                    ? t('bid.quotaLimit', { amount: yuan(limit) })
                    : t('bid.quotaLeft', {
                        amount: yuan(limit),
                        used: yuan(exposure),
                        left: yuan(Math.max(0, limit - exposure)),
                      })}
                </p>
              ) : null}
            </div>
          ),
          confirmText: t('bid.recharge'),
          cancelText: t('bid.later'),
        })
        // 去充值 and back to this lot (/account/quotaRecharge's 返回).
        if (go) await navigate(rechargeHref(action.path, location.pathname + location.search))
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
    <div>
      {notLeading && !lot.leading ? (
        <p className={styles.notLeading} data-testid="not-leading" role="status">
          {t(notLeading.rule === 'tie_earlier' ? 'bid.tieEarlier' : 'bid.proxyHigher', {
            amount: yuan(Math.max(notLeading.minimum, minimum)),
          })}
        </p>
      ) : null}
      <div className={styles.mode} role="radiogroup">
        {(['direct', 'proxy'] as const).map((key) => (
          <button
            key={key}
            type="button"
            role="radio"
            aria-checked={mode === key}
            className={mode === key ? `${styles.modeOption} ${styles.modeOn}` : styles.modeOption}
            data-mode={key}
            onClick={() => {
              setMode(key)
              setChosen(null)
              setDraft(null)
            }}
          >
            {key === 'direct' ? t('bid.direct') : t('bid.proxy')}
          </button>
        ))}
        <p className={styles.modeHint}>{proxy ? t('bid.proxyHint') : t('bid.directHint')}</p>
      </div>
      <div className={styles.row}>
        <div className={styles.stepper} role="group" aria-label={t('bid.amount')}>
          <button
            type="button"
            className={styles.stepperButton}
            aria-label={t('bid.decrease')}
            disabled={down === undefined}
            onClick={() => down !== undefined && choose(down)}
          >
            <MinusOutline />
          </button>
          <span
            className={`${styles.stepperValue} ${styles.amount}`}
            data-testid="bid-amount"
            data-fen={amount ?? ''}
          >
            <span className={styles.currency}>¥</span>
            <VirtualInput
              className={styles.amountInput}
              aria-label={t('bid.typeAmount')}
              value={typing || draft !== null ? (draft ?? '') : formatFen(stepped)}
              placeholder={formatFen(stepped)}
              onFocus={() => {
                setTyping(true)
                setDraft('')
              }}
              onBlur={finishTyping}
              onChange={(value) => setDraft(value.replace(/\D/g, '').slice(0, 12))}
              keyboard={
                <NumberKeyboard
                  // The keypad covers the bar, so its title shows what is being typed.
                  title={
                    draft
                      ? t('bid.keypadTyped', {
                          amount: `¥${formatFen(Number(draft) * 100, 0)}`,
                          minimum: yuan(minimum),
                        })
                      : t('bid.keypadTitle', { amount: yuan(minimum) })
                  }
                  confirmText={t('common.confirm')}
                />
              }
            />
          </span>
          <button
            type="button"
            className={styles.stepperButton}
            aria-label={t('bid.increase')}
            disabled={up === undefined}
            onClick={() => up !== undefined && choose(up)}
          >
            <AddOutline />
          </button>
        </div>
        <Button
          color="primary"
          className={styles.submit}
          data-testid="bid-submit"
          disabled={amount === undefined || directBlocked || typing}
          loading={place.isPending}
          onClick={() => {
            inBackground(submit())
          }}
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
      {typed !== null ? <TypedHint typed={typed} onChoose={choose} /> : null}
    </div>
  )
}

/** What is wrong with a typed amount and the valid amounts to pick instead. */
function TypedHint({ typed, onChoose }: { typed: TypedBid; onChoose: (fen: number) => void }) {
  const { t } = useTranslation()
  const choices =
    typed.kind === 'off-grid'
      ? typed.choices
      : typed.kind === 'below-minimum'
        ? [typed.minimum]
        : []
  const text =
    typed.kind === 'off-grid'
      ? t('bid.offGrid', { amount: yuan(typed.amount) })
      : typed.kind === 'below-minimum'
        ? t('bid.belowMinimum', { amount: yuan(typed.minimum) })
        : typed.kind === 'too-high'
          ? t('bid.tooHigh', { amount: yuan(typed.maximum) })
          : null
  if (text === null) return null
  return (
    <div className={styles.typedHint} data-testid="typed-hint" data-kind={typed.kind} role="status">
      <span>{text}</span>
      {choices.map((fen) => (
        <button
          key={fen}
          type="button"
          className={styles.choice}
          data-testid="grid-choice"
          data-fen={fen}
          onClick={() => onChoose(fen)}
        >
          {yuan(fen)}
        </button>
      ))}
    </div>
  )
}
