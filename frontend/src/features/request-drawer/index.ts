/**
 * Starting a request: the drawer that runs a survey one question at a time, how any screen
 * opens it, and the survey catalogue's queries that screens list surveys from.
 */
export { SurveyButton } from './components/SurveyButton'
export {
  BENEFITS_HELP_SURVEY_ID,
  INTRO_SURVEY_ID,
  INTRO_SURVEY_NAME,
  RequestDrawerContext,
  useRequestDrawer,
} from './requestDrawer'
export {
  categoryRequestSurveysQuery,
  DASHBOARD_CATEGORY_LIMIT,
  isSurveyNotFound,
  type RecommendedCategory,
  recommendedCategoriesQuery,
  SUGGESTED_SURVEYS_PER_CATEGORY,
  surveyCategoriesQuery,
} from './surveys'
