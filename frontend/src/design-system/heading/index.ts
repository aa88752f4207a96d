export type { HeadingLevel, HeadingProps, HeadingSize } from './Heading'
export { Heading } from './Heading'
