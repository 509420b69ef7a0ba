"""The doors GitHub and people knock on: the app factory, the webhook and its signature check,
probes, and the registration pages. The top layer: may import every other bot package."""
