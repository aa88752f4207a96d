/** Offerings test data and MSW handlers (spec §7 'Offerings'). */
import { HttpResponse, http } from 'msw'
import { apiUrl } from '@/test/server'
import type { Offering, OfferingCategory, OfferingDetail } from '../api'

export function makeOffering(overrides: Partial<Offering> = {}): Offering {
  return {
    id: 1,
    type: 'benefit',
    provider_name: 'BlueHarbor Health',
    provider_logo_url: '/media/logos/blueharbor.svg',
    heading: 'Medical plan',
    subheading: 'PPO and HMO options',
    name: 'BlueHarbor PPO 500',
    featured: true,
    categories: ['Health'],
    ...overrides,
  }
}

export const medical = makeOffering()
export const dental = makeOffering({
  id: 2,
  provider_name: 'BrightSmile Dental',
  provider_logo_url: '/media/logos/brightsmile.svg',
  heading: 'Dental & vision',
  subheading: 'Cleanings covered at 100%',
  name: 'BrightSmile Plus',
  categories: ['Health'],
})
export const retirement = makeOffering({
  id: 3,
  provider_name: 'Nestwell Retirement',
  provider_logo_url: '/media/logos/nestwell.svg',
  heading: '401(k) retirement plan',
  subheading: 'A 100% match on the first 4%',
  name: 'Acme 401(k) Savings Plan',
  featured: false,
  categories: ['Financial'],
})
export const hotels = makeOffering({
  id: 10,
  type: 'product',
  provider_name: 'Wanderly',
  provider_logo_url: '/media/logos/wanderly.svg',
  heading: 'Hotel discounts',
  subheading: 'Up to 40% off worldwide',
  name: 'Wanderly Member Rates',
  categories: ['Travel'],
})
export const lifeInsurance = makeOffering({
  id: 11,
  type: 'product',
  provider_name: 'Evergreen Life',
  provider_logo_url: '/media/logos/evergreen.svg',
  heading: 'Term life insurance',
  subheading: 'Quotes in minutes',
  name: 'Evergreen Term Life',
  featured: false,
  categories: ['Financial', 'Family'],
})

export const allOfferings = [medical, dental, retirement, hotels, lifeInsurance]

export const categories: OfferingCategory[] = [
  { external_id: 'health', name: 'Health', image_url: null },
  { external_id: 'financial', name: 'Financial', image_url: null },
  { external_id: 'family', name: 'Family', image_url: null },
  { external_id: 'travel', name: 'Travel', image_url: null },
  { external_id: 'pets', name: 'Pets', image_url: null },
]

export function makeDetail(overrides: Partial<OfferingDetail> = {}): OfferingDetail {
  return {
    ...medical,
    sections: [],
    request_survey_cta: null,
    request_survey_id: null,
    request_survey_name: null,
    request_survey_answer: null,
    ...overrides,
  }
}

export const medicalDetail = makeDetail({
  sections: [
    {
      id: 101,
      section_type: 'numbered',
      heading: 'Find an in-network doctor',
      items: [
        { key: null, value: 'Sign in with your member ID.', external_url: null },
        { key: null, value: "Choose 'Find care' and search.", external_url: null },
        { key: null, value: 'Call the office to book.', external_url: null },
      ],
      cta_url: 'https://www.blueharbor.example/find-care',
      cta_text: 'Search doctors',
    },
    {
      id: 102,
      section_type: 'key_value',
      heading: 'Contact BlueHarbor',
      items: [
        { key: 'phone', value: '+1 (800) 555-0142', external_url: null },
        { key: 'email', value: 'members@blueharbor.example', external_url: null },
        { key: 'link', value: 'www.blueharbor.example/find-care', external_url: null },
        {
          key: 'download',
          value: 'Summary of benefits (PDF)',
          external_url: '/media/docs/summary.pdf',
        },
        { key: 'Group number', value: 'ACME-4471', external_url: null },
      ],
      cta_url: null,
      cta_text: null,
    },
    {
      id: 103,
      section_type: 'text',
      heading: 'Your plan at a glance',
      items: [
        { key: null, value: '$500 individual deductible.', external_url: null },
        { key: null, value: 'This second item is not shown.', external_url: null },
      ],
      cta_url: 'https://www.blueharbor.example/plan',
      cta_text: 'Read the plan',
    },
  ],
  request_survey_cta: 'Help me with my benefits',
  request_survey_id: 720,
  request_survey_name: 'Help me with my benefits',
})

export interface OfferingsApiLog {
  /** Every GET /api/v1/offerings query string, in order. */
  listQueries: string[]
  detailIds: number[]
}

export interface OfferingsApiOptions {
  /** Offerings returned by the list endpoint (filtered by `types`, like the server). */
  offerings?: Offering[]
  /** Featured lists; default: the featured ones of `offerings`. */
  featured?: Offering[]
  categories?: OfferingCategory[]
  details?: Record<number, OfferingDetail>
}

/** MSW handlers for the three offering endpoints; returns a log of the calls. */
export function offeringsApi(options: OfferingsApiOptions = {}) {
  const offerings = options.offerings ?? allOfferings
  const featured = options.featured ?? offerings.filter((o) => o.featured)
  const log: OfferingsApiLog = { listQueries: [], detailIds: [] }
  const handlers = [
    http.get(apiUrl('/api/v1/offerings'), ({ request }) => {
      const url = new URL(request.url)
      log.listQueries.push(decodeURIComponent(url.search))
      const types = (url.searchParams.get('types') ?? 'benefit,product').split(',')
      const source = url.searchParams.get('prefer_featured') === 'true' ? featured : offerings
      const limit = Number(url.searchParams.get('limit') ?? 0) || undefined
      return HttpResponse.json({
        offerings: source.filter((o) => types.includes(o.type)).slice(0, limit),
      })
    }),
    http.get(apiUrl('/api/v1/offerings/:id'), ({ params }) => {
      const id = Number(params.id)
      log.detailIds.push(id)
      const detail = options.details?.[id]
      if (!detail) {
        return HttpResponse.json({ success: false, error: 'Not found' }, { status: 404 })
      }
      return HttpResponse.json({ offering: detail })
    }),
    http.get(apiUrl('/api/v1/offering_categories'), () =>
      HttpResponse.json({ offering_categories: options.categories ?? categories }),
    ),
  ]
  return { handlers, log }
}
