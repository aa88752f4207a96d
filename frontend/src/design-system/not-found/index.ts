export { NotFound } from './NotFound'
