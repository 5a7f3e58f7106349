"""The sample clusters' Home cards in Chinese. The English card is the file's leading comment
(kubesched/ui/figures/cluster.py ``sample_card``); ``CARDS`` holds, per language other than
English, each file's headline and description. A test keeps one card per sample file."""

EN: dict[str, str] = {}
ZH: dict[str, str] = {}

CARDS: dict[str, dict[str, tuple[str, str]]] = {"zh": {
    "affinity.yaml": (
        "节点亲和性、Pod 亲和性与 Pod 反亲和性。",
        "讲解：NodeAffinity（必需的各个 term 之间是“或”，同一 term 内的表达式之间是“与”；偏好的 term 累加各自的权重），"
        "InterPodAffinity（必需与偏好、亲和与反亲和，由 topologyKey 决定“在一起”的含义）。db-0 运行在 zone-a；"
        "web-* 希望与某个 db Pod 在同一可用区；web Pod 之间不愿共享节点；ssd-only 需要 disktype=ssd；"
        "newer-kernel 对一个数值标签使用 Gt。"),
    "default.yaml": (
        "仪表盘打开时使用的集群。",
        "讲解：一次调度运行如何处理一组贴近真实的 Pod。三个可用区（zone-a、zone-b、zone-c）中的六个节点，"
        "同时带有 topology.kubernetes.io/zone 和 1.18 时代的 failure-domain.beta.kubernetes.io/zone 标签；"
        "有小机器也有大机器，还有一个带 dedicated=gpu:NoSchedule 污点的 GPU 节点。已有两个 Pod 在运行。"
        "十三个待调度的 Pod 分别演示：资源适配（big-batch 只放得进大节点，too-big 哪里都放不下：“Insufficient cpu”）、"
        "污点与容忍（gpu-trainer）、必需与偏好的节点亲和性（zone-a-only、prefers-large）、"
        "Pod 亲和性（api-1 希望靠近 cache）、Pod 反亲和性（cache-0 和 cache-1 不愿与另一个 cache Pod 共享节点）"
        "以及拓扑分布（frontend-0..2 均匀分布在各可用区）。"),
    "policy.yaml": (
        "由 v1.18 框架运行的 1.18 之前的调度器 Policy（预选/优选）。",
        "讲解：kube-scheduler v1.18.5 如何把旧式 Policy（kind: Policy，apiVersion: v1，即 --policy-config-file 读取的格式）"
        "转换为插件。每个预选（predicate）变成 Filter 插件（仅 GeneralPredicates 就包括 NodeResourcesFit、NodeName、"
        "NodePorts 和 NodeAffinity），每个优选（priority）变成带该优选权重的 Score 插件：MostRequestedPriority × 2 "
        "把 Pod 集中到更满的节点上（NodeResourcesMostAllocated），labelPreference 优选（避开带 reserved 标签的节点）"
        "变成 NodeLabel 插件。CheckNodeUnschedulable 和 PodToleratesNodeTaints 总会被加入，所以被封锁的 node-b 被过滤掉。"
        "node-a 上已运行一个 Pod：batch-1 和 batch-2 集中到它上面；disk-heavy 需要 disktype=ssd"
        "（MatchNodeSelector，属于 GeneralPredicates），因此落在带 reserved 标签的 node-c 上。"),
    "preemption.yaml": (
        "优先级与抢占，以及一个 PodDisruptionBudget。",
        "讲解：PriorityClass（其中一个为 globalDefault）、PrioritySort 队列顺序和抢占：两个节点都被低优先级 Pod 占满，"
        "待调度的高优先级 critical-api 无处可放；调度器在一个节点上挑选牺牲者（先看 PDB 违反数最少，"
        "再看牺牲者中最高优先级最低，……），提名该节点并删除牺牲者。batch Pod 受一个不允许任何中断的 PDB 保护，"
        "所以只运行 cache Pod 的节点代价更小。polite 的 preemptionPolicy 为 Never，但在 v1.18.5 中只有开启 alpha 特性门控 "
        "NonPreemptingPriority（默认关闭）时该字段才生效，所以 polite 也会抢占：这是 v1.18 的一课。"),
    "spread.yaml": (
        "PodTopologySpread：让副本均匀分布。",
        "讲解：maxSkew、topologyKey 和 whenUnsatisfiable。三个可用区，其中 zone-c 只有一个节点。zone-a 中已运行两个 web Pod。"
        "web Deployment 再添加四个，跨可用区 maxSkew 为 1（DoNotSchedule：硬性规则，所以在其他可用区赶上之前 zone-a "
        "会被过滤掉），另有按节点的软性分布（ScheduleAnyway：只影响打分）。batch Pod 只使用 ScheduleAnyway。"),
    "taints.yaml": (
        "污点排斥 Pod；容忍让选定的 Pod 通过。",
        "讲解：TaintToleration 的过滤与打分。node-plain 没有污点；node-gpu 带 dedicated=gpu:NoSchedule（硬性的“禁止进入”）；"
        "node-spot 带 spot=true:PreferNoSchedule（软性的：允许，但打分更低）；node-draining 带 maintenance:NoExecute。"
        "plain-pod 只能落在 node-plain 或 node-spot 上（更偏好 node-plain）；gpu-pod 以 operator Equal 容忍 gpu 污点；"
        "spot-ok 以 Exists 容忍所有 spot 污点；tolerate-all（空 key，operator Exists）容忍一切。"),
    "workloads.yaml": (
        "工作负载控制器：DaemonSet、带存储声明的 StatefulSet 和 Job 会创建哪些 Pod、何时创建。",
        "讲解：调度器从不直接看到 DaemonSet、StatefulSet 或 Job，只看到它们的控制器创建的 Pod"
        "（与 kube-controller-manager v1.18 一致）。DaemonSet node-agent：每个可运行它的节点一个 Pod。"
        "从 1.18 起控制器不再自己选节点：每个 Pod 带上必需的节点亲和性 matchFields metadata.name In [<node>] "
        "以及守护进程的容忍（not-ready、unreachable、disk/memory/pid-pressure、unschedulable），由默认调度器绑定。"
        "gpu-1 的 dedicated=gpu 污点不被容忍，所以 gpu-1 上没有 agent Pod。StatefulSet db：先 db-0，"
        "db-0 Running 且 Ready 后再 db-1（这里晚 2 秒：OrderedReady；db-0 在卷绑定器第一次检查时绑定，"
        "即其周期后 1 秒，再过 1 秒开始运行），每个都有由 volumeClaimTemplate 生成的存储声明 data-db-<n>。"
        "这些声明使用基于本地卷的 WaitForFirstConsumer 存储类，因此调度器同时选择节点和卷："
        "db-1 只能去 db-0 留下空闲本地卷的那个节点。Job report：3 次完成，每次 2 个 Pod；每个 Pod 运行 10 秒，"
        "然后第三个开始。Deployment web：加载文件时即创建其 ReplicaSet 和 Pod。"),
}}
