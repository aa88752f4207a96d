import { Button } from '@/design-system'

/** Save and Cancel under an account detail's form. */
export function FormActions({
  submitting,
  label = 'Save changes',
  onCancel,
}: {
  submitting: boolean
  label?: string
  onCancel: () => void
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button type="submit" size="sm" loading={submitting}>
        {label}
      </Button>
      <Button variant="tertiary" size="sm" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  )
}
