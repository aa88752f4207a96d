/** The request ideas' tabs (and the accessible-tabs library under them): small screens only. */
export const loadIdeasTabs = () => import('./RequestIdeasTabs')
