export type { TextInputElement, TextInputProps, TextInputType } from './TextInput'
export { TextInput, toNumberOrNull } from './TextInput'
