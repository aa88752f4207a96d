export { cx, focusRing, focusRingAria } from './cx'
export { mergeRefs } from './mergeRefs'
