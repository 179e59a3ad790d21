"""Inference-layer gates, per data set that inference has started on (rows in inference.counterfactuals or
inference.predictions):

* every test record has a counterfactual from every generator used on the data set, whose sex is the other one
  (the same one for placebo generators, '<name>-placebo');
* every test record has, for every model that scored the data set, a prediction of its original input and of
  its counterfactual input (when the counterfactual is ok) in every setting the model scores (its
  inference.triage_models.scored_settings; every setting for an unregistered model);
* per model, the parse rate - the share of predictions with a level (predicted_level not null) - is at least
  the threshold, levels are in 1-5 and probabilities in [0, 1].
"""

from __future__ import annotations

import duckdb

from biasmirror.settings import LEVELS, SETTINGS
from biasmirror.warehouse.catalog import column_names, has_table
from biasmirror.quality.suites import Check, Skipped, between, is_true, not_null, values_in

DEFAULT_MIN_PARSE_RATE = 0.95


def _scored_models_sql(con: duckdb.DuckDBPyConnection) -> str:
    """The models that scored data set ? with the settings they score (null: every setting)."""
    registered = "scored_settings" in column_names(con, "inference", "triage_models")
    if not registered:
        return ("select distinct model, cast(null as varchar) as scored_settings "
                "from inference.predictions where dataset = ?")
    return ("select distinct p.model, r.scored_settings from inference.predictions p "
            "left join inference.triage_models r on r.dataset = p.dataset and r.model = p.model "
            "where p.dataset = ?")


def inference_checks(con: duckdb.DuckDBPyConnection, min_parse_rate: float) -> tuple[list[Check], list[Skipped]]:
    needed = [("inference", "counterfactuals"), ("inference", "predictions"), ("audit", "triage_cohort"),
              ("audit", "model_inputs")]
    if not all(has_table(con, s, t) for s, t in needed):
        return [], [Skipped("inference", "inference", "the warehouse lacks the cohort or inference tables: "
                            "run `biasmirror build`")]
    datasets = [row[0] for row in con.execute(
        "select dataset from inference.counterfactuals union select dataset from inference.predictions "
        "order by 1").fetchall()]
    if not datasets:
        return [], [Skipped("inference", "inference", "no counterfactuals or predictions yet")]
    settings = ", ".join(f"('{s}')" for s in SETTINGS)
    checks: list[Check] = []
    for dataset in datasets:
        counterfactuals = con.execute("""
            with generators as (select distinct generator from inference.counterfactuals where dataset = ?),
            tests as (select record_id, sex from audit.triage_cohort where dataset = ? and split = 'test')
            select
                g.generator,
                c.record_id is not null as has_counterfactual,
                case when c.record_id is not null then
                    -- a placebo copy (generator '<name>-placebo') keeps the original sex by design
                    upper(c.original_sex) = t.sex and upper(c.counterfactual_sex) =
                        case when g.generator like '%-placebo' then t.sex when t.sex = 'F' then 'M' else 'F' end
                end as sex_is_swapped
            from tests t
            left join generators g on true
            left join inference.counterfactuals c
                on c.dataset = ? and c.record_id = t.record_id and c.generator = g.generator
        """, [dataset] * 3).df()  # every ? is the data set
        checks.append(Check("inference", f"{dataset}.counterfactuals", f"inference.counterfactuals ({dataset})",
                            counterfactuals, [
                                is_true("has_counterfactual", "every test record has a counterfactual from every "
                                        "generator used on the data set"),
                                values_in("sex_is_swapped", [True], "the counterfactual shows the other sex (the same for placebo copies)"),
                            ]))
        coverage_sql = f"""
            with tests as (select record_id from audit.triage_cohort where dataset = ? and split = 'test'),
            models as ({_scored_models_sql(con)}),
            generators as (select distinct generator, record_id, status from inference.counterfactuals where dataset = ?),
            settings(setting) as (values {settings}),
            inputs as (select * from audit.model_inputs where dataset = ? and split = 'test'),
            predictions as (select model, input_id from inference.predictions where dataset = ?)
            select
                s.setting,
                m.model,
                g.generator,
                o.input_id is not null as has_original_input,
                po.input_id is not null as has_original_prediction,
                case when g.status = 'ok' then pc.input_id is not null end as has_counterfactual_prediction
            from tests t
            cross join settings s
            left join models m
                on m.scored_settings is null
                or position(',' || s.setting || ',' in ',' || m.scored_settings || ',') > 0
            left join generators g on g.record_id = t.record_id
            left join inputs o on o.record_id = t.record_id and o.setting = s.setting and o.variant = 'original'
            left join predictions po on po.model = m.model and po.input_id = o.input_id
            left join inputs c on c.record_id = t.record_id and c.setting = s.setting and c.variant = 'counterfactual'
                and c.generator = g.generator
            left join predictions pc on pc.model = m.model and pc.input_id = c.input_id
            -- a setting no model scores is not a gap (a model trained on an isolated setting scores only it)
            where m.model is not null or (select count(*) from models) = 0
        """
        # every ? is the data set (positional parameters: the same on DuckDB and PostgreSQL)
        coverage = con.execute(coverage_sql, [dataset] * coverage_sql.count("?")).df()
        checks.append(Check("inference", f"{dataset}.prediction_coverage", f"inference.predictions ({dataset})",
                            coverage, [
                                is_true("has_original_input", "every test record has an original input in every setting"),
                                is_true("has_original_prediction", "every model scored the original input of every "
                                        "test record in every setting"),
                                values_in("has_counterfactual_prediction", [True], "every model scored the "
                                          "counterfactual input of every test record in every setting"),
                            ]))
        models = [row[0] for row in con.execute(
            "select distinct model from inference.predictions where dataset = ? order by 1", [dataset]).fetchall()]
        for model in models:
            predictions = con.execute(
                "select predicted_level, p_level_1, p_level_2, p_level_3, p_level_4, p_level_5 "
                "from inference.predictions where dataset = ? and model = ?", [dataset, model]).df()
            expectations = [
                not_null("predicted_level", f"parse rate: at least {min_parse_rate:.1%} of predictions have a "
                         "level (predicted_level not null)", mostly=min_parse_rate),
                values_in("predicted_level", list(LEVELS), "predicted levels are 1-5"),
            ]
            expectations += [between(f"p_level_{level}", 0, 1, "probabilities are in [0, 1]") for level in LEVELS]
            checks.append(Check("inference", f"{dataset}.predictions.{model}",
                                f"inference.predictions ({dataset}, {model})", predictions, expectations))
    return checks, []
