export { cx, focusRing, focusRingAria } from './cx';
