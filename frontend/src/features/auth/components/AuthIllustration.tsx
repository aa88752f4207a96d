/**
 * The sign-in family's illustration: an original, decorative scene of a concierge bell, a
 * to-do card being ticked off and a little house, in the product's teal and coral.
 */
export function AuthIllustration({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 400 320"
      aria-hidden="true"
      focusable="false"
      className={className}
      xmlns="http://www.w3.org/2000/svg"
    >
      {/* soft backdrop */}
      <circle cx="205" cy="165" r="138" fill="var(--color-primary-800)" />
      <circle cx="318" cy="70" r="42" fill="var(--color-accent-400)" opacity="0.9" />
      <circle cx="366" cy="284" r="16" fill="var(--color-primary-300)" opacity="0.45" />

      {/* little house */}
      <g transform="translate(262 150)">
        <rect x="0" y="38" width="92" height="74" rx="8" fill="var(--color-accent-100)" />
        <path
          d="M-8 44 46 0l54 44"
          fill="none"
          stroke="var(--color-accent-500)"
          strokeWidth="10"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <rect x="34" y="70" width="26" height="42" rx="5" fill="var(--color-accent-500)" />
        <rect x="10" y="56" width="18" height="16" rx="3" fill="var(--color-primary-300)" />
        <rect x="66" y="56" width="18" height="16" rx="3" fill="var(--color-primary-300)" />
      </g>

      {/* to-do card */}
      <g transform="translate(86 58)">
        <rect
          x="6"
          y="8"
          width="170"
          height="196"
          rx="18"
          fill="var(--color-primary-950)"
          opacity="0.35"
        />
        <rect width="170" height="196" rx="18" fill="#fff" />
        <rect x="22" y="22" width="86" height="10" rx="5" fill="var(--color-neutral-300)" />
        {[0, 1, 2].map((row) => (
          <g key={row} transform={`translate(22 ${56 + row * 44})`}>
            <rect
              width="26"
              height="26"
              rx="8"
              fill={row < 2 ? 'var(--color-primary-500)' : 'var(--color-neutral-100)'}
              stroke={row < 2 ? 'none' : 'var(--color-neutral-300)'}
              strokeWidth="2"
            />
            {row < 2 && (
              <path
                d="m7 13.5 4.5 4.5L19.5 9"
                fill="none"
                stroke="#fff"
                strokeWidth="3"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            )}
            <rect
              x="38"
              y="4"
              width={row === 1 ? 70 : 92}
              height="8"
              rx="4"
              fill="var(--color-neutral-200)"
            />
            <rect
              x="38"
              y="16"
              width={row === 2 ? 48 : 60}
              height="6"
              rx="3"
              fill="var(--color-neutral-100)"
            />
          </g>
        ))}
      </g>

      {/* concierge bell */}
      <g transform="translate(36 178)">
        <ellipse cx="62" cy="92" rx="64" ry="9" fill="var(--color-primary-950)" opacity="0.3" />
        <rect x="0" y="76" width="124" height="14" rx="7" fill="var(--color-accent-600)" />
        <path d="M10 76a52 52 0 0 1 104 0Z" fill="var(--color-accent-400)" />
        <path
          d="M30 58a34 34 0 0 1 20-22"
          fill="none"
          stroke="#fff"
          strokeWidth="6"
          strokeLinecap="round"
          opacity="0.7"
        />
        <rect x="54" y="12" width="16" height="14" rx="4" fill="var(--color-accent-600)" />
        <circle cx="62" cy="10" r="8" fill="var(--color-accent-500)" />
      </g>

      {/* sparkles */}
      <path d="M330 214l5 12 12 5-12 5-5 12-5-12-12-5 12-5Z" fill="var(--color-accent-200)" />
      <path d="M52 92l4 9 9 4-9 4-4 9-4-9-9-4 9-4Z" fill="var(--color-primary-200)" />
      <path d="M292 28l3 6 6 3-6 3-3 6-3-6-6-3 6-3Z" fill="#fff" opacity="0.8" />
    </svg>
  )
}
