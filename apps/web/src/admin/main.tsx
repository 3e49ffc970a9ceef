import '../lib/zod-jitless'
// antd 5 supports React 19 only with this patch, imported before antd (see ADR 020).
import '@ant-design/v5-patch-for-react-19'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider } from 'antd'
// The ES module: `antd/locale/zh_CN` is CommonJS, and the build's interop hands it over as
// `{ default: locale }`, so antd found no Chinese and showed its English ("Preview").
import zhCN from 'antd/es/locale/zh_CN'
import { createRoot } from 'react-dom/client'
import { AdminApp } from './admin-app'
import './admin.css'

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 },
    mutations: { retry: false },
  },
})

const container = document.getElementById('root')
if (!container) throw new Error('#root is missing')
createRoot(container).render(
  // Chinese throughout, antd's own words too; and "发送", not antd's spaced-out "发 送".
  <ConfigProvider
    locale={zhCN}
    button={{ autoInsertSpace: false }}
    theme={{ token: { colorPrimary: '#8e1f1b', borderRadius: 6 } }}
  >
    <AntApp>
      <QueryClientProvider client={queryClient}>
        <AdminApp />
      </QueryClientProvider>
    </AntApp>
  </ConfigProvider>,
)
