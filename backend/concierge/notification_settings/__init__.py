"""What reaches an employee outside the app: notification preferences per channel, one-click unsubscribe and web push to their devices."""
