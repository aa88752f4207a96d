export { PageHeader } from './PageHeader'
