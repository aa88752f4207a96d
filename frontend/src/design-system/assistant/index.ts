export type { AssistantProps, AssistantSize } from './Assistant'
export { ASSISTANT_NAME, Assistant } from './Assistant'
