"""A posting's employer and role read from the whole text when its header does not give them:
a known employer opening the title line, "作为X的Y", "X is seeking a Y", the employer the text names
as one (a sentence's subject, a team's owner), never a product's maker named once or a date, a
job board's buttons or a field of work after a dash. Written in the shapes real boards use."""
from __future__ import annotations

import pytest

from prep.postings import extract_posting
from prep.postings.canonical_company import canonical
from prep.postings.names import brand, is_organisation_name


@pytest.mark.parametrize(("text", "company", "title"), [
    pytest.param("高级GPU虚拟化研发工程师Apply |\n|\nJob Source |\n腾讯集团 |\nJob Description |\n1. 负责GPU虚拟化\n",
                 "腾讯", "高级GPU虚拟化研发工程师", id="a-table-of-bars"),
    pytest.param("星图大模型推理优化研发工程师-算子优化\n任职要求\n1. 熟悉CUDA\n",
                 None, "星图大模型推理优化研发工程师-算子优化", id="unknown-lead-stays-title"),
    pytest.param("腾讯大模型推理优化研发工程师-算子优化\n社招全职\n任职要求\n1. 熟悉CUDA与Triton\n",
                 "腾讯", "大模型推理优化研发工程师-算子优化", id="known-employer-opens-the-title-line"),
    pytest.param("商汤大装置-云计算网络开发工程师\n任职要求\n- 熟悉RDMA\n",
                 "商汤大装置", "云计算网络开发工程师", id="employer-and-unit-before-a-dash"),
    pytest.param("职位简介:\n作为腾讯TEG的集合通信库研发工程师,你将负责AllReduce算子的开发。\n",
                 "腾讯", "集合通信库研发工程师", id="as-the-role-of-the-employer"),
    pytest.param("Meta is seeking a Machine Learning Runtime Engineer to build the host runtime.\n"
                 "Requirements\n- C++ and Python\n", "Meta", "Machine Learning Runtime Engineer", id="x-is-seeking-a-y"),
    pytest.param("Save This Job\nTrack This Job\nCome build the libraries behind our GPUs. We are looking for a "
                 "Principal Software Architect to help design them. Are you ready to help realize NVIDIA's vision?\n"
                 "What You Will Be Doing\n- Design collectives\n", "NVIDIA", "Principal Software Architect",
                 id="board-buttons-are-not-names"),
    pytest.param("Staff Engineer - Deep Learning and HPC Communications\nNVIDIA NVIDIA · Semiconductors · Santa Clara, CA\n"
                 "Build NCCL.\n", "NVIDIA", "Staff Engineer - Deep Learning and HPC Communications",
                 id="field-after-a-dash-and-a-repeated-logo-name"),
    pytest.param("About the Team The ByteDance Storage team builds distributed storage.\nMinimum Qualifications\n- C++\n",
                 "ByteDance", None, id="the-team-of-a-known-employer"),
    pytest.param("Page title: RDMA 网络驱动开发工程师 | 澄算科技\n加入我们 / 社会招聘 / 研发类\n岗位职责\n1. 开发 RDMA 驱动\n",
                 "澄算科技", "RDMA 网络驱动开发工程师", id="page-title-role-and-employer-over-a-breadcrumb"),
    pytest.param("Senior Software Engineer, Collectives\nQuorra Fabric builds the network for training clusters.\n"
                 "Responsibilities\n- Own the collectives library at Quorra Fabric.\n- Work with Quorra's kernel team.\n",
                 "Quorra Fabric", "Senior Software Engineer, Collectives", id="a-role-in-the-header-the-name-the-text-repeats"),
    pytest.param("# Larkfield Careers: Senior Software Engineer - Connectivity\n## Overview\nBuild radio firmware.\n",
                 "Larkfield", "Senior Software Engineer - Connectivity", id="careers-title-line"),
    pytest.param("Tessellate (YC W21) Is Hiring a Compiler Engineer\n\nfrom Hacker News https://example.org/x\n"
                 "Location: Remote\n\nTessellate is hiring a compiler engineer to map models onto our chip.\n",
                 "Tessellate", "Tessellate (YC W21) Is Hiring a Compiler Engineer", id="a-repost-line-with-an-address-is-no-name"),
    pytest.param("Site Reliability Engineer\nRemote\n\nQuillstone logo\nQuillstone\nApply now\n\nResponsibilities\n- Run Kubernetes\n",
                 "Quillstone", "Site Reliability Engineer", id="a-logos-text"),
    pytest.param("Software Engineer, Storage Intern - 2026 Start\nSingapore\nQuillstone\nQuillstone builds storage.\n"
                 "Responsibilities\n- Build caches\n", "Quillstone", "Software Engineer, Storage Intern - 2026 Start", id="a-start-year-is-no-employer"),
])
def test_company_and_title_from_the_whole_posting(text: str, company: str | None, title: str | None) -> None:
    result = extract_posting(text)
    assert (result.company, result.title) == (company, title)


@pytest.mark.parametrize("text", [
    pytest.param("岗位职责:\n1. 开发推理框架(如vLLM)\n岗位要求:\n1. 精通CUDA、OpenAI Triton或Ascend C\n", id="a-maker-named-once"),
    pytest.param("大模型训练工程师\n\n2025.04.15\n\n社会招聘\n职位描述\n1. 优化NCCL通信\n", id="a-date"),
    pytest.param("加入我们 / 社会招聘 / 研发类\n岗位职责\n1. 负责集群网络的开发\n2. 负责集群网络的运维\n3. 集群网络监控\n",
                 id="a-breadcrumb-and-a-phrase-repeated"),
])
def test_no_employer_is_invented(text: str) -> None:
    assert extract_posting(text).company is None


def test_a_field_before_a_reports_title_words_is_no_employer() -> None:
    # ("2025年存储面试题": the year's 年 is no part of a name, and 存储 is a field of work)
    assert extract_posting("2025年存储面试题及答案_第1页\n2025年存储面试题及答案_第2页\n下载本文档\n"
                           "2025年存储面试题及答案Q1:NVMe 和 SATA 的区别？A:协议不同。Q2:什么是写放大？A:垃圾回收。\n").company is None


@pytest.mark.parametrize("name", ["Interview Preparation Guidelines", "Interview Date - 12th May on Teams",
                                  "Interview kitsBlog", "职位简介", "---", "已O", "已OC", "Q1", "第22部分",
                                  "存储", "人工智能", "大模型推理", "操作系统"])
def test_a_title_or_a_sentence_is_not_an_employer(name: str) -> None:
    assert not is_organisation_name(name)


@pytest.mark.parametrize("name", ["NVIDIA", "字节跳动", "腾讯TEG", "Tidewater AI", "商汤大装置", "Google Cloud"])
def test_employers_are_names(name: str) -> None:
    assert is_organisation_name(name)


def test_a_report_in_traditional_characters_names_its_employer() -> None:
    report = ("騰訊云智后臺實習二面\n1、自我介紹\n2、談談你對大模型的應用\n答:早在 DeepSeek 開源前調用過幾個模型。\n"
              "3、如何自實現可記憶化 AI Chat?\n")
    assert extract_posting(report).company == "腾讯"


@pytest.mark.parametrize(("text", "company", "title"), [
    pytest.param("# 腾讯TEG, 后台开发实习\n## 一面\n面试官问了 epoll 的水平触发和边缘触发有什么区别。\n## 二面\n二面主要聊项目。问了怎么做灰度发布。\n",
                 "腾讯", "后台开发", id="company-unit-comma-role-heading"),
    pytest.param("商汤大装置 系统研发工程师一面\n\nRDMA 的三种传输模式\n我答了 RC、UC、UD，面试官又追问了适用场景。\n",
                 "商汤", "系统研发工程师", id="company-unit-space-role-round"),
])
def test_a_reports_title_line_names_employer_and_role(text: str, company: str, title: str) -> None:
    result = extract_posting(text)
    assert (result.doc_kind, result.company, result.title) == ("report", company, title)


def test_a_forum_thread_names_its_employer_in_brackets_not_the_forum() -> None:
    text = ("Devboard = a place to share\nDevboard 是一个关于分享和探索的地方\n现在注册\nDevboard  ›  酷工作\n"
            "[商汤/大装置] 诚邀 Rust 系统工程师共建推理基础设施\n我们正在构建推理基础设施。\n岗位要求\n- 熟悉 Rust 和 RDMA\n")
    assert extract_posting(text).company == "商汤"


def test_the_number_of_openings_is_no_part_of_the_title() -> None:
    text = "GPU架构师 (1人)\n职位编号: 998\n岗位职责\n1、负责 GPU 架构设计\n"
    assert extract_posting(text).title == "GPU架构师"


def test_an_emoji_section_label_or_an_icons_text_is_no_employer() -> None:
    """A board's emoji-led section label ("📍 Job Overview") and an icon's alternative text
    ("Location pin icon") are page decoration: the employer the text names is taken instead."""
    text = ("GPU Kernel Engineer\n📍 Job Overview\n- Company: Advanced Micro Devices, Inc\n- Location: Shanghai\n\n"
            "Responsibilities\n- Write HIP kernels for AMD GPUs.\n- Tune AMD ROCm libraries.\n")
    company = extract_posting(text).company  # (the board's field gives its legal name: the same company page)
    assert company is not None and canonical(company) is not None and canonical(company).slug == "amd", company
    icon = ("Inference Engineer\nLocation pin icon\nMenlo Park, CA\n\nAbout Meta\nMeta builds inference systems.\n\n"
            "Responsibilities\n- Optimise Meta's serving stack.\n")
    assert extract_posting(icon).company != "Location pin icon"


def test_a_question_list_titled_by_its_topic_names_no_employer() -> None:
    text = ("## Subnetting\n1. How many hosts fit in a /26\n2. What is the broadcast address of 10.0.0.0/30\n"
            "3. What is a default gateway\n\n## Transport\n1. What is the difference between TCP and UDP\n"
            "  * reliability\n  * ordering\n2. What does a TCP handshake look like\n")
    assert extract_posting(text).company is None  # its first heading is a topic, named on no other line


def test_an_offer_at_a_level_names_no_employer() -> None:
    text = "# My loop\n\nPhone screen, then four rounds.\n\nWhat is a B-tree?\nHow does Raft elect a leader?\n\nOffer at E4. Signed.\n"
    assert extract_posting(text).company != "E4"


def test_a_dated_title_names_its_employer() -> None:
    text = "2026年3月2日 Quorvane 存储引擎工程师（实习）面经\n一面\n1. LSM tree 的写放大怎么算？\n2. 讲讲 compaction 的策略\n"
    assert extract_posting(text).company == "Quorvane"


def test_a_venue_after_at_is_no_employer() -> None:
    text = ("# Campus drive: Kestrel Networks R&D\n\nKestrel Networks visited our college in August.\n\n"
            "### Round 1: Online test at NIT university\n- aptitude and C\n"
            "### Round 2: Technical interview (offline at NIT)\n- What is a VLAN?\n- How does OSPF pick a route?\n"
            "### Round 3: HR interview (offline at NIT)\n- Why networking?\n")
    assert extract_posting(text).company != "NIT"


def test_a_job_boards_front_matter_names_the_employer() -> None:
    text = ("---\ntitle: \"Linux Kernel Developer\"\nlocation: \"Remote\"\ncompanyName: \"Quorvane\"\n"
            "timestamp: 1612310400000\n---\n\nWe build open-source graphics drivers.\n\n"
            "What you will do\n- Write and upstream kernel drivers\n")
    result = extract_posting(text)
    assert (result.company, result.title) == ("Quorvane", "Linux Kernel Developer")


def test_a_short_postings_first_line_names_its_employer_though_once() -> None:
    text = "Acme GPU\nGPU 通信工程师\n职位详情\n负责 NCCL 优化。\n面试指南\n- 请解释Ring AllReduce的两个阶段\n- RDMA与TCP/IP相比有何优势？\n"
    assert extract_posting(text).company == "Acme GPU"  # a posting with questions is no question bank titled by its topic


@pytest.mark.parametrize(("text", "company", "title"), [
    pytest.param("[社招] 澄江证券-信息技术部-AI平台开发工程师\n岗位描述\n1、负责云原生 AI 平台\n", "澄江证券", "AI平台开发工程师",
                 id="employer-department-role"),
    pytest.param("Acme-Platform Team-Senior GPU Engineer\nRequirements\n- CUDA\n", "Acme", "Senior GPU Engineer",
                 id="employer-team-role"),
    pytest.param("云计算-网络开发工程师\n任职要求\n- RDMA\n", None, "云计算-网络开发工程师", id="a-field-and-a-role"),
])
def test_a_dashed_title_names_employer_department_and_role(text: str, company: str | None, title: str) -> None:
    result = extract_posting(text)
    assert (result.company, result.title) == (company, title)


@pytest.mark.parametrize(("text", "company"), [
    pytest.param("# 岭南云视频算法岗面试经验\n\n面试公司：成都岭南云科技有限公司（lingnancloud）\n面试岗位：视频算法\n\n"
                 "问：为什么从上一家公司离职？\n", "岭南云", id="a-labelled-employer-and-its-latin-name"),
    pytest.param("---\ntitle: My Interview Experience\n---\n\n### Kestrel.io (Brightline) Interview Experience for SRE Role\n\n"
                 "Kestrel.io came to our campus for an SRE role.\n\n1. What happens when you type a URL?\n", "Kestrel.io",
                 id="the-employer-in-a-second-title-line"),
])
def test_a_reports_employer(text: str, company: str) -> None:
    assert brand(extract_posting(text).company or "") == company


def test_a_hugo_toml_front_matter_gives_the_title_and_is_no_text() -> None:
    result = extract_posting('+++\ndate = "2020-09-01"\ndraft = true\ntitle = "Site Reliability Engineer"\n'
                             '[params]\nlabel = "Engineering"\n+++\n\nAt Quarry, we run everything remote.\n\n'
                             '## Requirements\n- Kubernetes\n')
    assert result.title == "Site Reliability Engineer"
    assert result.company == "Quarry"


def test_a_reports_employer_in_a_bulleted_label() -> None:
    result = extract_posting("---\ntitle: 某厂社招一面\n---\n\n### 背景\n\n  * 公司：云霁科技\n  * 部门：存储\n\n"
                             "### 八股\n\n1. Go map 为什么不是并发安全的？\n")
    assert brand(result.company or "") == "云霁"


def test_a_posting_that_lists_its_interview_steps_stays_a_posting() -> None:
    result = extract_posting("\n".join([
        "# GPU Driver Engineer - Orchard Austin 2024",
        "",
        "## Company Information",
        "**Company:** Orchard Computer Inc.  ",
        "**Location:** Austin, TX  ",
        "",
        "## Key Responsibilities",
        "- Develop GPU drivers for our graphics processors",
        "",
        "## Required Qualifications",
        "- 5+ years of experience in graphics driver development",
        "",
        "## Application Process",
        "1. **Online Application:** Submit an application on our careers site",
        "2. **Technical Phone Screen:** Graphics programming and GPU architecture discussion",
        "3. **Technical Interviews:** Several rounds on drivers, GPU programming and system design",
        "4. **Behavioral Interview:** Team collaboration",
    ]))
    assert result.doc_kind == "posting"
    assert result.company == "Orchard Computer Inc."


@pytest.mark.parametrize(("text", "company"), [
    pytest.param("I recently went through SDE2 interviews at Quorvane. This post gives back to the community.\n"
                 "Round 1: design a rate limiter.\nRound 2: implement a thread-safe LRU cache.\n"
                 "Quorvane cares a lot about concurrency.\n", "Quorvane", id="interviews-at-in-prose"),
    pytest.param("# How I landed an internship at Brindle Labs in my third year\n\nBrindle Labs visited our campus "
                 "in July.\n\n- **Computer Networks**\n- **Operating Systems**\n\nWhat is a VLAN?\n"
                 "How does ARP work?\n", "Brindle Labs", id="internship-at-in-title"),
    pytest.param("Compiler Engineer (GPU Backend)\nKey Responsibilities\n- Build MLIR passes for NVIDIA and AMD targets.\n"
                 "- Tune LLVM backends for NVIDIA GPUs.\nWorking at Tessaract offers a small team. Tessaract builds "
                 "compilers for Tessaract chips.\n", "Tessaract", id="working-at-over-a-named-vendor"),
    pytest.param("# Staff Compiler Engineer\n\nAt **Quillfork** , we build inference chips.\n\n## What you will do\n"
                 "- Lower graphs to our ISA with MLIR\n\n## About us\n**Quillfork** is proud to be an equal opportunity "
                 "employer. Quillfork does not accept resumes from agencies.\n", "Quillfork", id="at-x-we-and-eeo"),
    pytest.param("# Senior GPU Performance Engineer\n### Harrow Dynamics\n\n**Meet the team**\n\nHarrow's planning stack "
                 "runs on NVIDIA Orin.\n\n**What you'll do**\n- Tune CUDA kernels for NVIDIA hardware\n\n**Perks**\n\n"
                 "Harrow cares about our people and we offer a learning budget.\n", "Harrow Dynamics",
                 id="full-name-on-its-own-line-over-the-possessive"),
    pytest.param("# Performance Engineer\n\nTessel's tools are fast.\n\n## Requirements\n- CUDA\n", None,
                 id="said-once-is-not-enough"),
    pytest.param("# Performance Engineer\n\nAt Tessel, we ship fast.\n\n## Requirements\n- CUDA\n", "Tessel",
                 id="at-x-we-says-it-alone"),
    pytest.param("# Performance Engineer\n\n## Requirements\n- A Bachelor's degree; a Master's preferred\n"
                 "- Bachelor's in CS or EE\n- CUDA\n", None, id="a-degree-is-no-speaker"),
    pytest.param("# [HPC Engineer, ML Infrastructure - US Remote](https://jobs.example.org/x)\n### Fernhill Labs\n\n"
                 "Description\n\nHere at Fernhill Labs, we're on a journey to make models easy to run.\n\n"
                 "**Responsibilities**\n\n* Run large clusters\n\nFernhill Labs is an equal opportunity employer and we "
                 "value diversity.\n", "Fernhill Labs", id="a-place-after-the-dash-and-the-voice-of-the-text"),
    pytest.param("# 【GRAYSTACK】远程Linux运维工程师\n\n## 需求描述\n\n- 熟悉 Linux\n", "GRAYSTACK", id="bracketed-employer"),
    pytest.param("# 【急招】远程Linux运维工程师\n\n## 需求描述\n\n- 熟悉 Linux\n", None, id="a-bracketed-tag-is-no-employer"),
    pytest.param("# Principal Software Engineer\n\n{{#include intro.md}}\n\n## In the nutshell\n\nYou will design storage.\n",
                 None, id="a-template-directive-is-no-employer"),
    pytest.param("# C++ notes\n\n## Round 1\n- lambda functions and captures?\n- What does a lambda capture by default?\n", None,
                 id="lambda-the-feature"),
    pytest.param("# AI Storage 训练册\n\n## 用真实 JD 校准\n\n- 每拿到一个目标 JD，提取职责。\n- 为什么 KV cache 放不下？\n", None,
                 id="jd-the-job-description"),
    pytest.param("# Personal Experience\n\n## Round 1\n- How does consistent hashing work?\n", None, id="a-title-word"),
    pytest.param("someorg/jobs · issue #24 · open\n# [校招/社招/实习][GRAYSTACK]-分布式存储研发工程师\n\n## 职位描述\n\n"
                 "- 负责分布式存储系统的开发\n", "GRAYSTACK", id="tags-then-the-employer-in-brackets"),
    pytest.param('---\ntitle: "[社会招聘] 青桐-基础研发部招聘"\n---\n\n### 基础研发部简介\n\n负责集团的基础服务。\n\n'
                 "### 分布式存储研发专家\n\n#### 岗位职责\n\n1. 负责存储引擎开发\n", "青桐", id="a-departments-hiring-notice"),
    pytest.param("# TiFlare\n\n**Title:** 数据库研发工程师（实习）\n\n## First-Round (2021-03-31)\n\n- Kubernetes 架构\n"
                 "- 如何实现一个 operator？\n\n## Second-Round\n\n- Raft 的选举过程？\n", "TiFlare", id="a-report-titled-by-its-employer"),
    pytest.param("# IP Addressing\n\n## Round 1\n\n- What is a subnet mask?\n- How does CIDR work?\n", None,
                 id="a-report-titled-by-its-topic"),
    pytest.param("Quorix interview question\n\nExplain how a page fault is handled. Difference between a process and a thread. "
                 "Implement a ring buffer. Reverse a linked list in place.\n", "Quorix", id="a-lowercase-interview-title"),
    pytest.param("---\ntitle: 招人啦\n---\n\n青穹云存储团队招聘C++开发\n\n- 熟悉 Linux 下 C++ 开发\n- 熟悉 RocksDB 更好\n\n"
                 "有意者发简历到 hr@qingqiong.example.com\n", None, id="a-hiring-shout-is-no-employer"),
    pytest.param("# Senior Engineer, Edge Networking\n### Brightpath\n\n#### About the Team\n\nBrightpath is redefining how "
                 "networks run, and our team builds its edge. Brightpath is committed to reliability.\n\n#### Brightpath Fabric Link\n\n"
                 "Brightpath Fabric Link allows customers to connect directly to our network.\n\n#### Requirements\n\n"
                 "- Experience with Linux networking\n", "Brightpath", id="a-product-after-its-maker-is-not-its-name"),
    pytest.param("Veltrane— Systems Engineer\nAnonymous · Mar 2026\nInterview Rounds\nOnsite: 1. Coding — implement a router "
                 "2. System design — design Veltrane's cache layer\nTips\nVeltrane expects systems depth. Veltrane asks about TCP.\n",
                 "Veltrane", id="a-title-name-the-text-repeats"),
    pytest.param("# 内推方式\n\n简历发送到 someone@example.com\n\n# 面试流程\n支持电话面试、在线面试及现场面试\n\n"
                 "# 岗位介绍\n\n## 后端研发\n**岗位描述:**\n1. 负责分布式系统开发\n", None, id="a-referral-heading-and-a-listing-sentence"),
    pytest.param("Training Infrastructure Engineer\n\nQuorix is a research lab for retrieval. We train models that read any "
                 "source. Backed by researchers from Google and Anthropic.\n\nResponsibilities\n\n- Build the training stack\n",
                 "Quorix", id="an-opening-that-says-what-the-employer-is"),
    pytest.param("Java/Big Data Platform Engineer\n=\nTeam: AI ML\nLocation: Shanghai\n#\nPlease send your resume to Echo, "
                 "Recruiter @ Veltrane if you are interested: echo@veltrane.com\n#\nJob Description Summary\n"
                 "Job Responsibilities:\n- Build the streaming platform as a core platform in Veltrane\n- Operate it\n",
                 "Veltrane", id="the-contact-address-at-the-employers-domain"),
    pytest.param("Backend Engineer\n\nSend your resume to someone@gmail.com\n\nResponsibilities:\n- Build services\n",
                 None, id="a-mail-service-names-no-employer"),
])
def test_the_employer_a_posting_or_report_names_by_voice_title_or_field(text: str, company: str | None) -> None:
    """Named where the text says the candidate went ("interviews at X", "Working at X"), as the text
    speaks ("At X, we …"), in a title (brackets, dashes, a brand alone); never by a word that is no
    employer ("lambda functions", a job description's "JD", "Personal Experience")."""
    assert extract_posting(text).company == company


def test_a_lowercase_led_brand_speaks_as_the_employer_though_the_board_ran_its_fields_together() -> None:
    text = "\n".join([
        "Inference Platform Engineer",
        "",
        "zTrade Inc.Denver, CO",
        "12dRemote",
        "",
        "At zTrade, we help small sellers reach buyers everywhere. zTrade's platform serves millions of listings.",
        "You will build the routing layer for our model servers.",
    ])
    assert extract_posting(text).company in ("zTrade", "zTrade Inc.")


def test_the_employer_building_its_teams_under_a_title_line() -> None:
    # ("… / DPU." then "Canonical is building teams …": the name is the sentence's subject, never the line above joined to it)
    result = extract_posting("Overview\nNetworking Software Engineer - SmartNIC / DPU.\n"
                             "Canonical is building teams to bring open source networking to data centres.\n"
                             "What your day will look like\n- Deliver the SONiC stack\n- Debug kernel networking\n")
    assert result.company == "Canonical"


def test_a_known_employer_opening_one_side_of_a_dashed_title() -> None:
    # ("[社招] 阿里云研发 - Serverless Container": the employer and its team's work, then the product)
    result = extract_posting("[社招] 阿里云研发 - Serverless Container\n### 工作职责\n1. 负责弹性容器实例的研发\n"
                             "### 任职要求\n1. 熟悉 Kubernetes 与虚拟化\n")
    assert result.company in ("阿里云", "阿里巴巴")


def test_a_boards_fields_as_a_list_name_the_employer() -> None:
    result = extract_posting("Firmware Engineer 2\n★ Job Overview\n- Job Title: Firmware Engineer 2\n- Company: Quillon Systems\n"
                             "- Location: Austin, Texas, United States\n- Job Type: On-site, Full-time\n"
                             "★ Role Summary\n- Primary Responsibility: write NIC drivers for the Linux kernel.\n")
    assert result.company == "Quillon Systems"


def test_a_job_number_is_no_name_and_a_chinese_name_heading_a_dashed_report_title_is_the_employer() -> None:
    assert extract_posting("Requisition # G1906205\nJob Title GPU Software Engineer\nResponsibilities\n- Drivers\n").company \
        != "Requisition # G1906205"
    report = extract_posting("石岚科技-2025秋招-运维工程师面经\n面试问答整理\n- 问:为什么选择运维开发?\n- 答:想深入云原生。\n"
                             "- 问:K8s 的 Service 怎么实现负载均衡?\n")
    assert report.company == "石岚科技"
