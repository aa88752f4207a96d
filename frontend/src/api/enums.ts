/**
 * The closed sets the API declares, as the generated OpenAPI types carry them. Use these
 * instead of writing the values out again.
 */
import type { components } from './schema'

type Schemas = components['schemas']

/** A request's status: open ('In Queue'), in_progress ('In Progress'), closed ('Completed'). */
export type RequestStatus = Schemas['RequestStatus']
/** Who wrote a message: the employee ('user') or a concierge ('life_concierge'). */
export type MessageSource = Schemas['MessageSource']
/** A survey category's icon. */
export type SurveyCategoryIcon = Schemas['Icon']
/** The input a survey question asks for. */
export type QuestionInputType = Schemas['InputType']
