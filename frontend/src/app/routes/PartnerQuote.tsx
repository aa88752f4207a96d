import { useEffect } from 'react'
import { Navigate, useLocation } from 'react-router'

/**
 * /products/{product}: the server answers this path with a redirect to the partner quote
 * site, so a full page load gets there; the app then falls back to SignIn (spec §2).
 */
export default function PartnerQuote() {
  const { pathname } = useLocation()
  useEffect(() => {
    window.location.replace(pathname)
  }, [pathname])
  return <Navigate to="/sign-in" replace />
}
