import { Heading, Link, Paragraph } from '@/design-system'
import type { OfferingSection, OfferingSectionItem } from '../api'
import { keyValueHref, keyValueLabel, safeHref } from '../links'

/** The offering's sections in order, each rendered by its section_type (spec §2). */
export function OfferingSections({ sections }: { sections: OfferingSection[] }) {
  return (
    <>
      {sections.map((section) => (
        <SectionView key={section.id} section={section} />
      ))}
    </>
  )
}

function SectionView({ section }: { section: OfferingSection }) {
  const headingId = `offering-section-${section.id}`
  const labelled = section.heading ? { 'aria-labelledby': headingId } : {}
  return (
    <section
      data-section-type={section.section_type}
      {...labelled}
      className="flex flex-col gap-3 border-t border-line pt-6"
    >
      {section.heading ? (
        <Heading level={3} id={headingId}>
          {section.heading}
        </Heading>
      ) : null}
      {section.section_type === 'numbered' ? (
        <NumberedSection section={section} />
      ) : section.section_type === 'key_value' ? (
        <KeyValueSection items={section.items} />
      ) : (
        <TextSection section={section} />
      )}
    </section>
  )
}

/** The section's call-to-action link (cta_url with cta_text), if it has one. */
function SectionCta({ section }: { section: OfferingSection }) {
  const href = safeHref(section.cta_url)
  if (!href) return null
  return (
    <Link href={href} className="self-start">
      {section.cta_text?.trim() || 'Learn more'}
    </Link>
  )
}

function NumberedSection({ section }: { section: OfferingSection }) {
  return (
    <>
      <ol className="flex list-decimal flex-col gap-2 ps-6 text-ink marker:font-semibold marker:text-primary-700">
        {section.items.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items have no id and keep their order
          <li key={index} className="ps-1">
            {item.value}
          </li>
        ))}
      </ol>
      <SectionCta section={section} />
    </>
  )
}

function KeyValueSection({ items }: { items: OfferingSectionItem[] }) {
  return (
    <dl className="flex flex-col divide-y divide-line rounded-xl border border-line">
      {items.map((item, index) => {
        const href = keyValueHref(item)
        return (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: items have no id and keep their order
            key={index}
            className="flex flex-col gap-0.5 px-4 py-3 sm:flex-row sm:gap-4"
          >
            <dt className="text-sm font-semibold text-ink-muted sm:w-40 sm:shrink-0">
              {keyValueLabel(item.key)}
            </dt>
            <dd className="min-w-0 break-words text-ink">
              {href ? <Link href={href}>{item.value}</Link> : item.value}
            </dd>
          </div>
        )
      })}
    </dl>
  )
}

function TextSection({ section }: { section: OfferingSection }) {
  const first = section.items[0]
  const itemHref = section.cta_url ? null : safeHref(first?.external_url)
  return (
    <>
      {first ? (
        <Paragraph className="whitespace-pre-line wrap-anywhere">{first.value}</Paragraph>
      ) : null}
      {itemHref ? (
        <Link href={itemHref} className="self-start">
          {section.cta_text?.trim() || 'Learn more'}
        </Link>
      ) : (
        <SectionCta section={section} />
      )}
    </>
  )
}
