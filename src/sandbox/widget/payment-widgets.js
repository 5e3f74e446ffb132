// The sandbox payment widget (arrives with the widget issue).
