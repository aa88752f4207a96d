export { MainContent, SkipLink } from './SkipLink'
