"""postings.company_key and postings.role_key: the canonical company a posting or interview report
is about (so "字节", "ByteDance" and "字节跳动" count as one company on the company pages) and the
role family its title names

Backfills company_key from the names known when this revision was written (their ASCII-folded
forms, below; a name that is none of them gets a slug of its Latin words). ``prep init`` then
derives both keys again with the current rules (pinyin slugs for other Chinese names, the
legal forms and divisions, the role families), so a database is complete after either.

Revision ID: 0025_company_keys
Revises: 0024_booking_priority
"""
from alembic import op
import sqlalchemy as sa


revision = "0025_company_keys"
down_revision = "0024_booking_priority"
branch_labels = None
depends_on = None

#: Company slug -> its names as this revision compares them (case folded, letters and digits only).
NAMES = {
    "bytedance": ["bytedance", "字节跳动", "字节", "抖音", "douyin", "tiktok", "火山引擎", "volcanoengine", "飞书"],
    "tencent": ["tencent", "腾讯", "teg", "鹅厂", "wechat", "微信", "腾讯云", "tencentcloud"],
    "nvidia": ["nvidia", "英伟达", "辉达"],
    "alibaba": ["alibaba", "阿里巴巴", "阿里", "阿里云", "alibabacloud", "aliyun", "淘天", "淘宝", "天猫", "达摩院", "damoacademy", "通义"],
    "ant-group": ["antgroup", "蚂蚁集团", "蚂蚁", "蚂蚁金服", "支付宝", "alipay"],
    "baidu": ["baidu", "百度"],
    "huawei": ["huawei", "华为", "海思", "hisilicon", "昇腾"],
    "sensetime": ["sensetime", "商汤", "商汤科技"],
    "meituan": ["meituan", "美团"],
    "kuaishou": ["kuaishou", "快手", "kwai"],
    "jd": ["jdcom", "京东"],
    "pdd": ["pdd", "拼多多", "pinduoduo", "temu"],
    "netease": ["netease", "网易"],
    "xiaohongshu": ["xiaohongshu", "小红书", "rednote"],
    "bilibili": ["bilibili", "哔哩哔哩", "b站"],
    "xiaomi": ["xiaomi", "小米"],
    "didi": ["didi", "滴滴", "滴滴出行"],
    "moonshot-ai": ["moonshotai", "月之暗面", "moonshot", "kimi"],
    "deepseek": ["deepseek", "深度求索"],
    "zhipu-ai": ["zhipuai", "智谱", "zhipu", "智谱ai", "智谱华章"],
    "baichuan": ["baichuan", "百川智能", "百川"],
    "minimax": ["minimax", "稀宇科技"],
    "stepfun": ["stepfun", "阶跃星辰"],
    "01-ai": ["01ai", "零一万物"],
    "biren": ["biren", "壁仞科技", "壁仞"],
    "moore-threads": ["moorethreads", "摩尔线程"],
    "cambricon": ["cambricon", "寒武纪"],
    "enflame": ["enflame", "燧原科技", "燧原"],
    "hygon": ["hygon", "海光", "海光信息"],
    "kunlunxin": ["kunlunxin", "昆仑芯"],
    "shanghai-ai-lab": ["shanghaiailaboratory", "上海人工智能实验室", "shanghaiailab", "上海ailab", "上海ai实验室"],
    "horizon-robotics": ["horizonrobotics", "地平线"],
    "microsoft": ["microsoft", "微软", "msra", "微软亚洲研究院", "azure"],
    "google": ["google", "谷歌", "alphabet", "googledeepmind"],
    "meta": ["meta", "facebook", "脸书"],
    "amazon": ["amazon", "亚马逊", "aws", "amazonwebservices"],
    "apple": ["apple", "苹果"],
    "amd": ["amd", "超威半导体"],
    "intel": ["intel", "英特尔"],
    "qualcomm": ["qualcomm", "高通"],
    "broadcom": ["broadcom", "博通"],
    "samsung": ["samsung", "三星"],
    "openai": ["openai"],
    "anthropic": ["anthropic"],
    "oracle": ["oracle", "甲骨文"],
    "ibm": ["ibm"],
    "cisco": ["cisco", "思科"],
    "lenovo": ["lenovo", "联想"],
    "zte": ["zte", "中兴", "中兴通讯"],
    "shopee": ["shopee", "虾皮"],
    "trip-com": ["tripcom", "携程", "ctrip"],
}
_BY_NAME = {name: slug for slug, names in NAMES.items() for name in names}


def _key(company):
    if not company or not company.strip():
        return None
    squashed = "".join(ch for ch in company[:200].casefold() if ch.isalnum())
    if squashed in _BY_NAME:
        return _BY_NAME[squashed]
    words = "".join(ch if ch.isascii() and ch.isalnum() else " " for ch in company[:200].casefold()).split()
    if not words or any(not ch.isascii() for ch in company if ch.isalnum()):
        return None  # a Chinese name: prep init gives it its pinyin slug
    return "-".join(words)[:60].strip("-") or None


def upgrade():
    # Plain ADD COLUMN (no batch): a batch rebuild of postings on SQLite would cascade-delete the
    # rows that point at it (its questions, forecasts).
    op.add_column("postings", sa.Column("company_key", sa.String(length=80), nullable=True))
    op.add_column("postings", sa.Column("role_key", sa.String(length=40), nullable=True))
    op.create_index("ix_postings_company_key", "postings", ["company_key"])
    postings = sa.table("postings", sa.column("id", sa.Integer), sa.column("company", sa.String),
                        sa.column("company_key", sa.String))
    bind = op.get_bind()
    keys = {}
    for posting_id, company in bind.execute(sa.select(postings.c.id, postings.c.company)
                                            .where(postings.c.company.is_not(None))):
        key = _key(company)
        if key is not None:
            keys.setdefault(key, []).append(posting_id)
    for key, ids in keys.items():
        for start in range(0, len(ids), 500):
            bind.execute(postings.update().where(postings.c.id.in_(ids[start:start + 500])).values(company_key=key))


def downgrade():
    op.drop_index("ix_postings_company_key", table_name="postings")
    op.drop_column("postings", "role_key")
    op.drop_column("postings", "company_key")
