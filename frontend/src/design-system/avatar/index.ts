export { Avatar } from './Avatar'
