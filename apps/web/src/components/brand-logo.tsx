import styles from './brand-logo.module.css'

/** The shop's seal: 泉 on a red coin with a gold rim (the home header; large on the sign-in page). */
export function BrandLogo({ large = false }: { large?: boolean }) {
  return (
    <span className={large ? `${styles.logo} ${styles.large}` : styles.logo} aria-hidden="true">
      泉
    </span>
  )
}
