import { FIRST_SCREEN_SCRIPTS } from '@numisma/contracts/client-config'
import { afterFirstScreen, nextTask, preloadListed, reloadApp } from './lib/first-screen-paint'
import { inlinedData } from './lib/inlined-data'

// The entry is only this: the app (start-shop and what it imports) is fetched once a
// server-rendered first screen has painted, or at once on any other page (ADR 026 §9). The server
// lists the app's and the route's chunks: in the page as modulepreloads where no first screen
// came with it, else in a data block preloaded here after the first paint, a few per task (§15).
// Evaluating them is one task per step — the framework, the shop's shell, the page's start
// (startShop), start-up, then the page — so no single one holds a slow phone's main thread for long.
afterFirstScreen()
  .then(() => preloadListed(inlinedData(FIRST_SCREEN_SCRIPTS)))
  .then(() => import('react-dom/client'))
  .then(nextTask)
  .then(() => import('./app/start-shop'))
  .then(async ({ startShop }) => {
    await nextTask()
    startShop()
  })
  .catch((error: unknown) => {
    console.error(error)
    reloadApp()
  })
