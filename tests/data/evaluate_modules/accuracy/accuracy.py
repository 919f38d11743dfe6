"""A metric module written for the project's tests, following Hugging Face evaluate's module
API (an ``evaluate.Metric`` subclass with ``_info`` and ``_compute``), as the Hub's
``accuracy`` module does: the share of predictions equal to their reference."""
import datasets
import evaluate


class Accuracy(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="Accuracy: correct predictions over all predictions (test module).",
            citation="",
            inputs_description="predictions, references: lists of integer labels",
            features=datasets.Features({"predictions": datasets.Value("int32"),
                                        "references": datasets.Value("int32")}),
        )

    def _compute(self, predictions, references):
        correct = sum(1 for p, r in zip(predictions, references) if p == r)
        return {"accuracy": correct / len(references)}
