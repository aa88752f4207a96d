/** Rating a finished request: the faces, the rating's calls and its query keys. */
export {
  commentOnRating,
  fetchRequestRating,
  type RatingState,
  rateRequest,
  ratingKeys,
} from './api'
export { RatingCommentForm } from './components/RatingCommentForm'
export { RatingFaces, SCORE_LABELS, type Score } from './components/RatingFaces'
