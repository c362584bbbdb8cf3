"""The task packages studyhive registers by default, one line each: the TASK_PACKAGES setting's default."""

PACKAGES = (
    "server.tasks.ratio_estimation",
    "server.tasks.hypothesis_rating",
    "server.tasks.sketch_recognition",
    "server.tasks.hive",
    "server.tasks.jspsych",
)
