export type { FieldLabelProps } from './Field'
export {
  controlClassName,
  describedBy,
  FieldDescription,
  FieldErrorMessage,
  FieldLabel,
  useFieldIds,
} from './Field'
