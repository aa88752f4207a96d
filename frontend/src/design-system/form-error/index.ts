export { FormError } from './FormError'
