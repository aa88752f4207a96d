export { CheckboxField } from './CheckboxField'
