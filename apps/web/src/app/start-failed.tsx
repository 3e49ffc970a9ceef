import { Button, ErrorBlock } from 'antd-mobile'

/** Shown instead of an app whose configuration could not be loaded (server down, offline). */
export function StartFailed() {
  return (
    <ErrorBlock
      fullPage
      status="disconnected"
      title="服务暂时不可用"
      description="请检查网络连接后重试"
    >
      <Button color="primary" onClick={() => window.location.reload()}>
        重新加载
      </Button>
    </ErrorBlock>
  )
}
