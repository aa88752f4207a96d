/** The spec's §2 route table. Every screen is a lazily loaded route module. */
import type { ComponentType } from 'react'
import { createBrowserRouter, type LoaderFunction, type RouteObject, replace } from 'react-router'
import {
  RedirectIfAuthenticated,
  RequireAuth,
  RequireConcierge,
  RequireMfaEnrollment,
  RootRedirect,
} from './guards'
import { RootLayout } from './layouts/RootLayout'
import { RouteError } from './RouteError'

type Module = { default: ComponentType }
type DataModule = { loader: LoaderFunction }

/**
 * A lazy route module; its `title` becomes the page title (spec §2). A screen's `data` module
 * holds its route loader, which starts the screen's data requests as the navigation starts,
 * while the screen's own code is still loading.
 */
function screen(
  load: () => Promise<Module>,
  title?: string,
  data?: () => Promise<DataModule>,
): RouteObject {
  return {
    handle: title ? { title } : undefined,
    ...(data ? { loader: async (args) => (await data()).loader(args) } : {}),
    lazy: async () => ({ Component: (await load()).default }),
  }
}

export const PARTNER_PRODUCTS = [
  'term-life-insurance',
  'auto-insurance',
  'home-insurance',
  'home-warranty',
  'renters-insurance',
  'pet-insurance',
  'wills-and-trusts',
]

/**
 * A route that only sends the browser elsewhere. It answers before anything renders, so the
 * address bar, the history and analytics only ever see the destination (spec §2, §8).
 */
function redirectTo(path: string | ((params: Record<string, string | undefined>) => string)) {
  return {
    loader: ({ params }: { params: Record<string, string | undefined> }) =>
      replace(typeof path === 'string' ? path : path(params)),
    element: null,
  } satisfies RouteObject
}

const unlockPath = (token = '') => `/unlock/${encodeURIComponent(token)}`

/** The layouts load with their route's screen (in parallel), so neither family carries the other's. */
const layouts = {
  auth: async () => ({ Component: (await import('./layouts/AuthLayout')).AuthLayout }),
  query: async () => ({ Component: (await import('./layouts/QueryLayout')).QueryLayout }),
  signedIn: async () => ({ Component: (await import('./layouts/SignedInLayout')).SignedInLayout }),
  app: async () => {
    const { AppLayout, loader } = await import('./layouts/AppLayout')
    return { Component: AppLayout, loader }
  },
}

const loaders = {
  signIn: () => import('@/features/auth/routes/SignIn'),
  signUp: () => import('@/features/auth/routes/SignUp'),
  forgotPassword: () => import('@/features/auth/routes/ForgotPassword'),
  resetPassword: () => import('@/features/auth/routes/ResetPassword'),
  unlock: () => import('@/features/auth/routes/UnlockUser'),
  verifyEmail: () => import('@/features/auth/routes/VerifyEmail'),
  changeEmail: () => import('@/features/auth/routes/ChangeEmail'),
  rateByLink: () => import('@/features/satisfaction/routes/RateByLink'),
  mfaEnrollment: () => import('@/features/auth/routes/MfaEnrollment'),
  dashboard: () => import('@/features/dashboard/routes/Dashboard'),
  requests: () => import('@/features/requests/routes/Requests'),
  request: () => import('@/features/requests/routes/Request'),
  requestCategory: () => import('@/features/requests/routes/RequestCategory'),
  offeringsLanding: () => import('@/features/offerings/routes/OfferingsLanding'),
  offeringsFull: () => import('@/features/offerings/routes/OfferingsFull'),
  account: () => import('@/features/account/routes/Account'),
  company: () => import('@/features/company/routes/Company'),
  attachment: () => import('@/features/conversation/routes/Attachment'),
  aboutUs: () => import('@/features/onboarding/routes/AboutUs'),
  aboutYou: () => import('@/features/onboarding/routes/AboutYou'),
  contactInfo: () => import('@/features/onboarding/routes/ContactInfo'),
  partnerQuote: () => import('./routes/PartnerQuote'),
  // The concierge desk: its own chunks, fetched only once RequireConcierge lets a concierge in.
  conciergeLayout: () => import('@/features/concierge/routes/ConciergeLayout'),
  conciergeQueue: () => import('@/features/concierge/routes/Queue'),
  conciergeRequest: () => import('@/features/concierge/routes/DeskRequest'),
  conciergeSatisfaction: () => import('@/features/concierge/routes/Satisfaction'),
  conciergeSavedReplies: () => import('@/features/concierge/routes/SavedReplies'),
  notFound: () => import('@/design-system/not-found/NotFound'),
}

/** The route loaders of the screens that start their data before their code has loaded. */
const data = {
  dashboard: () => import('@/features/dashboard/loader'),
  requests: () => import('@/features/requests/loader'),
  offeringsLanding: () => import('@/features/offerings/loader'),
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // While the first screen's code and data load, the document's own skeleton shows (index.html).
    HydrateFallback: () => null,
    children: [
      // Where '/' goes depends on the session and the user: a redirect page views skip.
      { path: '/', element: <RootRedirect />, handle: { redirect: true } },
      { path: '/users/sign_in', ...redirectTo('/sign-in') },
      {
        path: '/users/sign_up/:companySlug?',
        ...redirectTo(({ companySlug }) =>
          companySlug ? `/sign-up/${encodeURIComponent(companySlug)}` : '/sign-up',
        ),
      },
      { path: '/:unlockToken/unlock', ...redirectTo(({ unlockToken }) => unlockPath(unlockToken)) },
      // /reset-password/{token}/unlock{userId?}: the legacy unlock link.
      {
        path: '/reset-password/:unlockToken/*',
        ...redirectTo(({ unlockToken, '*': rest = '' }) =>
          rest.startsWith('unlock') ? unlockPath(unlockToken) : '/not-found',
        ),
      },
      { path: '/life_concierge_requests', ...redirectTo('/requests') },
      { path: '/life_concierge_requests/new', ...redirectTo('/dashboard') },
      { path: '/requests/new', ...redirectTo('/dashboard') },
      { path: '/welcome', ...redirectTo('/welcome/about-us') },
      ...PARTNER_PRODUCTS.flatMap((product) => [
        { path: `/products/${product}`, ...screen(loaders.partnerQuote) },
        { path: `/additional-information/${product}`, ...screen(loaders.partnerQuote) },
      ]),
      {
        lazy: layouts.auth,
        children: [
          {
            element: <RedirectIfAuthenticated allowPendingMfa />,
            children: [{ path: '/sign-in', ...screen(loaders.signIn, 'Sign In') }],
          },
          { path: '/forgot-password', ...screen(loaders.forgotPassword, 'Forgot Password') },
          {
            path: '/reset-password/:resetToken',
            ...screen(loaders.resetPassword, 'Reset Password'),
          },
          { path: '/unlock/:unlockToken', ...screen(loaders.unlock, 'Unlock Account') },
          {
            // The screens past the sign-in form that read or write server state.
            lazy: layouts.query,
            children: [
              {
                element: <RedirectIfAuthenticated />,
                children: [
                  { path: '/sign-up/:companySlug?', ...screen(loaders.signUp, 'Sign Up') },
                ],
              },
              { path: '/rate/:token', ...screen(loaders.rateByLink, 'Rate Your Request') },
              {
                path: '/verify-email/:verificationToken',
                ...screen(loaders.verifyEmail, 'Confirm Email'),
              },
              {
                path: '/change-email/:changeToken',
                ...screen(loaders.changeEmail, 'Change Email'),
              },
              {
                element: <RequireMfaEnrollment />,
                children: [
                  {
                    path: '/mfa-enrollment',
                    ...screen(loaders.mfaEnrollment, 'Two-Step Verification'),
                  },
                ],
              },
            ],
          },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: layouts.signedIn,
            children: [
              { path: '/welcome/about-us', ...screen(loaders.aboutUs, 'About Us') },
              { path: '/welcome/about-you', ...screen(loaders.aboutYou, 'About You') },
              { path: '/welcome/contact-info', ...screen(loaders.contactInfo, 'Contact Info') },
              { path: '/attachments/:fileKey', ...screen(loaders.attachment, 'Attachment') },
              {
                element: <RequireConcierge />,
                children: [
                  {
                    lazy: async () => ({ Component: (await loaders.conciergeLayout()).default }),
                    children: [
                      { path: '/concierge', ...screen(loaders.conciergeQueue, 'Concierge desk') },
                      {
                        path: '/concierge/requests/:requestId',
                        ...screen(loaders.conciergeRequest, 'Concierge desk · Request'),
                      },
                      {
                        path: '/concierge/saved-replies',
                        ...screen(loaders.conciergeSavedReplies, 'Concierge desk · Saved replies'),
                      },
                      {
                        path: '/concierge/satisfaction',
                        ...screen(loaders.conciergeSatisfaction, 'Concierge desk · Satisfaction'),
                      },
                    ],
                  },
                ],
              },
              {
                lazy: layouts.app,
                children: [
                  { path: '/dashboard', ...screen(loaders.dashboard, 'Dashboard', data.dashboard) },
                  { path: '/requests', ...screen(loaders.requests, 'Requests', data.requests) },
                  {
                    path: '/requests/category/:categoryId',
                    ...screen(loaders.requestCategory, 'Request Category'),
                  },
                  { path: '/requests/:requestId', ...screen(loaders.request, 'Request') },
                  {
                    path: '/benefits-and-offers',
                    ...screen(loaders.offeringsLanding, 'Benefits & Offers', data.offeringsLanding),
                  },
                  {
                    path: '/benefits-and-offers/all',
                    ...screen(loaders.offeringsFull, 'All Benefits & Offers'),
                  },
                  { path: '/account', ...screen(loaders.account, 'Account Settings') },
                  // The emailed 'Download my data' link (its token in the #fragment): the Account
                  // page with its download.
                  { path: '/account/data', ...screen(loaders.account, 'Account Settings') },
                  { path: '/company/*', ...screen(loaders.company, 'Company') },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', ...screen(loaders.notFound, 'Page Not Found') },
    ],
  },
]

export function createRouter() {
  return createBrowserRouter(routes)
}
