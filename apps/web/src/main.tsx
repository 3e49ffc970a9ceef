import { afterFirstScreen } from './lib/first-screen-paint'

// The entry is only this: the app (start-shop and what it imports) is fetched once a
// server-rendered first screen has painted, or at once on any other page (ADR 026 §9). The server
// lists the app's chunks in the page, for the preload scanner where no first screen came with it.
afterFirstScreen()
  .then(() => import('./app/start-shop'))
  .then(({ startShop }) => startShop())
  .catch((error: unknown) => {
    console.error(error)
  })
