export type { OverlineProps, ParagraphProps, TextProps, TextSize, TextTone } from './Text'
export { Overline, Paragraph, Text } from './Text'
