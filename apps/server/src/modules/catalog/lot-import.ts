import { isImageUrl } from '@numisma/contracts/api'
import { ERRORS } from '@numisma/contracts/errors'
import {
  GRADING_SERVICES,
  LOT_IMPORT_COLUMNS,
  LOT_IMPORT_MAX_ROWS,
  type LotImportColumn,
  type LotImportError,
} from '@numisma/contracts/staff-catalogue'
import { formatFen } from '@numisma/contracts/money'
import type { LotCreate } from '@numisma/contracts/staff'
import { isOnGrid, nearestOnGrid, type PriceStep } from '@numisma/domain/increments'
import { CsvError, parse } from 'csv-parse/sync'

/** A lot as one row of the file gives it, before it has a special. */
export type LotDraft = Omit<LotCreate, 'specialId'>

export interface ImportContext {
  steps: readonly PriceStep[]
  /** Auction categories, matched by id or by name (Chinese or English). */
  categories: readonly { id: number; name: string; nameEn: string }[]
  /** Hosts whose https pictures may be used besides our own media (IMAGE_URL_HOSTS). */
  imageHosts?: readonly string[]
}

export interface CheckedImport {
  /** The lines under the header. */
  rowCount: number
  drafts: LotDraft[]
  errors: LotImportError[]
}

const COLUMNS = new Map<string, LotImportColumn>(
  LOT_IMPORT_COLUMNS.map((c) => [c.toLowerCase(), c]),
)
const REQUIRED: readonly LotImportColumn[] = ['title', 'startPrice']
const YES = new Set(['1', 'true', 'yes', 'y', '是'])
const NO = new Set(['', '0', 'false', 'no', 'n', '否'])
const YUAN = /^\d{1,9}(\.\d{1,2})?$/
const MAX_TEXT = { title: 200, subtitle: 200, description: 5000, certNo: 40 } as const
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/**
 * Reads and checks a bulk lot import (pure: the caller gives the grid and the categories). Every
 * row is checked, every refusal reported with its line (the header is line 1) and column, so the
 * operator fixes the file once; the caller writes nothing unless `errors` is empty.
 */
export function checkLotImport(csv: string, context: ImportContext): CheckedImport {
  let records: string[][]
  try {
    records = parse(csv, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    })
  } catch (error) {
    const line = error instanceof CsvError ? ((error as { lines?: number }).lines ?? 0) : 0
    return {
      rowCount: 0,
      drafts: [],
      errors: [fileError(line, `CSV 格式有误：${(error as Error).message}`)],
    }
  }
  const [header, ...rows] = records
  if (!header) return { rowCount: 0, drafts: [], errors: [fileError(1, '文件是空的')] }

  const columns: (LotImportColumn | null)[] = header.map(
    (name) => COLUMNS.get(name.toLowerCase()) ?? null,
  )
  const errors: LotImportError[] = []
  header.forEach((name, i) => {
    if (columns[i] === null)
      errors.push({ row: 1, field: name, code: 'VALIDATION_FAILED', message: `未知的列：${name}` })
    // A second column of the same name would be ignored, its cells silently lost.
    else if (columns.indexOf(columns[i]!) < i)
      errors.push({ row: 1, field: name, code: 'VALIDATION_FAILED', message: `重复的列：${name}` })
  })
  for (const column of REQUIRED)
    if (!columns.includes(column))
      errors.push({
        row: 1,
        field: column,
        code: 'VALIDATION_FAILED',
        message: `缺少必填列：${column}`,
      })
  if (rows.length === 0) errors.push(fileError(1, '没有拍品行'))
  if (rows.length > LOT_IMPORT_MAX_ROWS)
    errors.push(fileError(1, `一次最多导入 ${LOT_IMPORT_MAX_ROWS} 行，本文件有 ${rows.length} 行`))
  if (errors.length > 0) return { rowCount: rows.length, drafts: [], errors }

  const drafts: LotDraft[] = []
  rows.forEach((cells, index) => {
    const row = index + 2
    const cell = (column: LotImportColumn): string => {
      const i = columns.indexOf(column)
      return i < 0 ? '' : (cells[i] ?? '')
    }
    const refuse = (field: LotImportColumn, message: string, code = 'VALIDATION_FAILED') =>
      errors.push({ row, field, code, message })
    const before = errors.length
    const draft = checkRow(cell, refuse, context)
    if (errors.length === before && draft) drafts.push(draft)
  })
  return { rowCount: rows.length, drafts, errors }
}

function fileError(row: number, message: string): LotImportError {
  return { row, field: '', code: 'VALIDATION_FAILED', message }
}

type Refuse = (field: LotImportColumn, message: string, code?: string) => void

function checkRow(
  cell: (column: LotImportColumn) => string,
  refuse: Refuse,
  { steps, categories, imageHosts = [] }: ImportContext,
): LotDraft | null {
  const text = (column: 'title' | 'subtitle' | 'description' | 'certNo', min: number) => {
    const value = cell(column)
    if (value.length < min) refuse(column, '必填')
    else if (value.length > MAX_TEXT[column]) refuse(column, `不能超过 ${MAX_TEXT[column]} 字`)
    else if (column !== 'description' && /[\r\n]/.test(value)) refuse(column, '不能换行')
    else if (CONTROL.test(value)) refuse(column, '含有控制字符')
    return value
  }
  const title = text('title', 1)
  const subtitle = text('subtitle', 0)
  const description = text('description', 0)
  const certNo = text('certNo', 0)

  const fen = (column: 'startPrice' | 'reservePrice', required: boolean): number | undefined => {
    const value = cell(column).replace(/,/g, '')
    if (value === '') {
      if (required) refuse(column, '必填')
      return undefined
    }
    if (!YUAN.test(value) || Number(value) <= 0) {
      refuse(column, `不是有效的金额（元，最多两位小数）：${value}`)
      return undefined
    }
    const amount = Math.round(Number(value) * 100)
    if (!isOnGrid(amount, steps)) {
      const { below, above } = nearestOnGrid(amount, steps)
      const options = [below, above].filter((v): v is number => v !== null).map((v) => formatFen(v))
      refuse(column, `${ERRORS.BID_OFF_GRID.zh}，可改为 ${options.join(' 或 ')} 元`, 'BID_OFF_GRID')
      return undefined
    }
    return amount
  }
  const startPrice = fen('startPrice', true)
  const reservePrice = fen('reservePrice', false)
  if (startPrice !== undefined && reservePrice !== undefined && reservePrice < startPrice)
    refuse('reservePrice', ERRORS.RESERVE_BELOW_START.zh, 'RESERVE_BELOW_START')

  let categoryId: number | undefined
  const category = cell('category')
  if (category !== '') {
    const found = categories.find(
      (c) =>
        String(c.id) === category ||
        c.name === category ||
        c.nameEn.toLowerCase() === category.toLowerCase(),
    )
    if (found) categoryId = found.id
    else refuse('category', `没有这个分类：${category}`)
  }

  let gradeCode = 0
  const grade = cell('gradeCode')
  if (grade !== '') {
    if (/^\d{1,2}$/.test(grade)) gradeCode = Number(grade)
    else refuse('gradeCode', `品相代码应为 0–99 的整数：${grade}`)
  }

  let gradingService: LotDraft['gradingService']
  const service = cell('gradingService').toUpperCase()
  if (service !== '') {
    const known = GRADING_SERVICES.find((s) => s === service)
    if (known) gradingService = known
    else refuse('gradingService', `评级公司应为 ${GRADING_SERVICES.join(' / ')}：${service}`)
  }

  let exportBanned = false
  const banned = cell('exportBanned').toLowerCase()
  if (YES.has(banned)) exportBanned = true
  else if (!NO.has(banned)) refuse('exportBanned', `应为 1/0 或 是/否：${banned}`)

  const images = cell('images')
    .split('|')
    .map((url) => url.trim())
    .filter((url) => url !== '')
  if (images.length > 20) refuse('images', '最多 20 张图片')
  const bad = images.find((url) => url.length > 2048 || !isImageUrl(url, imageHosts))
  if (bad !== undefined) refuse('images', `不是有效的图片网址：${bad.slice(0, 80)}`)

  if (startPrice === undefined) return null
  return {
    title,
    subtitle,
    description,
    startPrice,
    reservePrice,
    categoryId,
    gradeCode,
    gradingService,
    certNo: certNo === '' ? undefined : certNo,
    images,
    exportBanned,
  }
}
