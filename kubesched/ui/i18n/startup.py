"""UI strings of the Startup page (keys ``startup.*``); step and function names stay as upstream spells them."""

EN = {
    "startup.title": "Startup",
    "startup.intro": "What `kube-scheduler` does from `main()` until its first `scheduleOne`: build the command "
                     "and options, create the scheduler (`scheduler.New`), start informers and wait for their "
                     "caches, win leader election, then `sched.Run` pops one pod at a time.",
    "startup.timeline_header": "The Run() sequence",
    "startup.show_future": "Show the steps after the cursor (greyed)",
    "startup.later": "later",
    "startup.cursor": "cursor",
    "startup.none_yet": "No startup step before the cursor yet: step forward.",
    "startup.hidden": "{count} more steps after the cursor (hidden).",
    "startup.hidden.one": "1 more step after the cursor (hidden).",
    "startup.col_seq": "#",
    "startup.col_time": "t (s)",
    "startup.col_replica": "replica",
    "startup.col_step": "step",
    "startup.col_did": "what the engine did",
    "startup.col_function": "upstream function",
    "startup.col_link": "source",
    "startup.col_past": "done",
    "startup.election_header": "Leader election",
    "startup.election_caption": "Each replica tries to take the lock every retryPeriod (2 s) stretched by a random "
                                "jitter of up to 120 % (2 to 4.4 s); the leader renews it every 2 s. "
                                "A lease not renewed for leaseDuration (15 s) expires and another replica takes it "
                                "(kube-scheduler 1.18 never releases it on exit).",
    "startup.leader_now": "Leader at the cursor: {leader}",
    "startup.no_leader": "No replica leads at the cursor.",
    "startup.replicas": "Replicas: {n}",
    "startup.one_replica": "This cluster runs one scheduler replica: stopping it leaves nobody to take over. "
                           "Reload it with two replicas to watch a hand-over.",
    "startup.reload": "Reload with 2 replicas",
    "startup.kill": "Stop the leader",
    "startup.kill_help": "Applies KillLeader() at the cursor (the future is recomputed) and steps to the hand-over.",
    "startup.kill_failed": "Could not do that:",
    "startup.handover": "Leader {old} stopped at t={killed:g} s; {new} acquired the lease at t={acquired:g} s.",
    "startup.handover_pending": "Leader {old} stopped at t={killed:g} s; nobody has taken over yet.",
    "startup.handover_attempts": "{new} kept trying every retry period: t = {times} s (failed: lock still held; "
                                 "not recorded, the outcome did not change).",
    "startup.killed": "KillLeader at t={time:g}s",
    "startup.implied": "implied attempt at t={time:g}s (lock still held)",
    "startup.lease_held": "holds the lease",
    "startup.axis_time": "simulated time (s)",
    "startup.links": "Upstream source",
    "startup.no_sim": "Load a cluster first (Home page).",
}

ZH = {
    "startup.title": "启动过程",
    "startup.intro": "`kube-scheduler` 从 `main()` 到第一次 `scheduleOne` 做了什么：构建命令和参数、创建调度器"
                     "（`scheduler.New`）、启动 informer 并等待缓存同步、赢得 leader 选举，然后 `sched.Run` "
                     "每次弹出一个 Pod。",
    "startup.timeline_header": "Run() 的执行顺序",
    "startup.show_future": "显示游标之后的步骤（灰色）",
    "startup.later": "之后",
    "startup.cursor": "游标",
    "startup.none_yet": "游标之前还没有启动步骤：请向前单步。",
    "startup.hidden": "游标之后还有 {count} 个步骤（已隐藏）。",
    "startup.hidden.one": "游标之后还有 1 个步骤（已隐藏）。",
    "startup.col_seq": "#",
    "startup.col_time": "t（秒）",
    "startup.col_replica": "副本",
    "startup.col_step": "步骤",
    "startup.col_did": "引擎做了什么",
    "startup.col_function": "上游函数",
    "startup.col_link": "源码",
    "startup.col_past": "已完成",
    "startup.election_header": "Leader 选举",
    "startup.election_caption": "每个副本每隔 retryPeriod（2 秒，再加上最多 120% 的随机抖动，即 2 到 4.4 秒）尝试获取锁；"
                                "leader 每 2 秒续约一次。租约超过 "
                                "leaseDuration（15 秒）未续约即过期，由其他副本接管（kube-scheduler 1.18 "
                                "退出时不会主动释放）。",
    "startup.leader_now": "游标处的 leader：{leader}",
    "startup.no_leader": "游标处没有副本担任 leader。",
    "startup.replicas": "副本数：{n}",
    "startup.one_replica": "该集群只运行一个调度器副本：停止它之后没有副本接管。用两个副本重新加载即可观察交接过程。",
    "startup.reload": "以 2 个副本重新加载",
    "startup.kill": "停止 leader",
    "startup.kill_help": "在游标处执行 KillLeader()（重新计算之后的过程），并前进到交接完成。",
    "startup.kill_failed": "无法完成该操作：",
    "startup.handover": "leader {old} 在 t={killed:g} 秒停止；{new} 在 t={acquired:g} 秒获得租约。",
    "startup.handover_pending": "leader {old} 在 t={killed:g} 秒停止；尚无副本接管。",
    "startup.handover_attempts": "{new} 每个 retryPeriod 重试一次：t = {times} 秒（失败：锁仍被占用；结果未变，"
                                 "因此没有记录）。",
    "startup.killed": "KillLeader，t={time:g} 秒",
    "startup.implied": "推断的尝试，t={time:g} 秒（锁仍被占用）",
    "startup.lease_held": "持有租约",
    "startup.axis_time": "模拟时间（秒）",
    "startup.links": "上游源码",
    "startup.no_sim": "请先加载一个集群（首页）。",
}

# Per language other than English: a step's name where upstream has none (a comment, an election
# transition) and what it does. English shows the engine's own message (kubesched/cmd/app/server.py).
STEP_NAMES: dict[str, dict[str, str]] = {"zh": {
    "Setup healthz checks": "设置 healthz 检查",
    "attempt succeeded": "尝试成功", "attempt failed": "尝试失败", "new-leader": "新 leader",
    "acquired": "获得租约", "lost": "失去租约", "released": "释放租约", "stopped": "已停止",
}}
STEP_TEXT: dict[str, dict[str, str]] = {"zh": {
    "main": "设置随机数种子，创建 kube-scheduler 命令（app.NewSchedulerCommand）并执行",
    "NewSchedulerCommand": "构建 cobra 命令及其各组命令行参数（其他、安全服务、非安全服务、认证、授权等）",
    "NewOptions": "以空的 kubescheduler.config.k8s.io/v1alpha2 配置的默认值创建选项",
    "runCommand": "校验选项（opts.Validate）",
    "Options.Config": "读取组件配置，创建客户端与事件广播器",
    "Config.Complete": "补全配置：命名 healthz 和 metrics 的非安全服务",
    "Run": "启动 Kubernetes 调度器（打印版本）",
    "scheduler.New": "创建调度器：算法来源、各 profile 及其插件",
    "EventBroadcaster.StartRecordingToSink": "开始把事件写入 API 服务器（每个 profile 一个 core/v1 记录器）",
    "Setup healthz checks": "设置 healthz 检查",
    "InsecureServing.Serve": "提供非安全的 healthz 服务（模拟：不打开端口）",
    "InsecureMetricsServing.Serve": "提供非安全的 metrics 服务（模拟：不打开端口）",
    "SecureServing.Serve": "通过 HTTPS 提供 healthz 和 metrics（模拟：不打开端口，不生成证书）",
    "InformerFactory.Start": "启动 informer：对各类对象执行 list + watch",
    "WaitForCacheSync": "等待 informer 缓存同步完成",
    "LeaderElector.Run": "尝试获取 leader 选举锁",
    "sched.Run": "运行调度器：等待已调度 Pod 的缓存同步（scheduledPodsHasSynced）",
    "SchedulingQueue.Run": "启动调度队列：每 1 秒 flushBackoffQCompleted，每 30 秒 flushUnschedulableQLeftover",
    "scheduleOne": "循环调用 sched.scheduleOne：每次调度一个 Pod",
    "attempt succeeded": "获取或续约锁成功",
    "attempt failed": "获取锁失败：锁仍被占用",
    "new-leader": "观察到新的 leader",
    "acquired": "获得租约，成为 leader",
    "lost": "失去租约",
    "released": "释放租约",
    "stopped": "副本停止运行",
}}
