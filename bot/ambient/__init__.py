"""What every layer may use: logs, metrics, stage timings, and the running job (the Job value
and its cancellation). The bottom layer: imports no other bot package."""
