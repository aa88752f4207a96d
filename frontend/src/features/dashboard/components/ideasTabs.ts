/** The request ideas as tabs: small screens only, so wider ones never load this code. */
export const loadIdeasTabs = () => import('./RequestIdeasTabs')
