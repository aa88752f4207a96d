/** Customer quotes for the illustrated sign-in layout; one is picked at random (spec §2). */
export interface CustomerQuote {
  quote: string
  name: string
  company: string
}

export const CUSTOMER_QUOTES: readonly CustomerQuote[] = [
  {
    quote:
      'I asked for help finding a pet sitter on a Monday and had three vetted options by Tuesday. It felt like having a personal assistant.',
    name: 'Maya R.',
    company: 'Northwind Logistics',
  },
  {
    quote:
      'Moving across the state with two kids was overwhelming. My concierge handled the utilities, the movers and the school records.',
    name: 'Daniel K.',
    company: 'Brightline Health',
  },
  {
    quote:
      'I finally understand my benefits. One request and I had a plain-English summary of what my plan actually covers.',
    name: 'Priya S.',
    company: 'Harbor & Pine',
  },
  {
    quote:
      'They compared car insurance quotes for me while I was at work. I saved money and didn’t spend a single lunch break on hold.',
    name: 'Luis M.',
    company: 'Cobalt Engineering',
  },
  {
    quote:
      'Planning my parents’ anniversary dinner took one message. The reservation, the cake and the flowers were all sorted.',
    name: 'Grace T.',
    company: 'Summit Credit Union',
  },
  {
    quote:
      'It’s the benefit I tell every new hire about. Small tasks stop piling up, and I get my evenings back.',
    name: 'Owen B.',
    company: 'Meridian Retail Group',
  },
]

/**
 * A random quote; on a page the server answered with a quote already painted (index.html's
 * first paint, `<html data-quote>`), that one, so the layout keeps what is on screen.
 */
export function pickQuote(random: () => number = Math.random): CustomerQuote {
  const painted = CUSTOMER_QUOTES[Number(document.documentElement.dataset.quote ?? Number.NaN)]
  if (painted) return painted
  const index = Math.min(CUSTOMER_QUOTES.length - 1, Math.floor(random() * CUSTOMER_QUOTES.length))
  return CUSTOMER_QUOTES[index]
}
