export * from './SelectField'
